/**
 * The JSON records on a line that is not one JSON value: records glued together — a newline lost
 * (`cat` of a recording whose last line had none, two lines joined in an editor, a lone "\r" for
 * an end of line) — or a record cut short and the next one written right after it (a writer that
 * died mid-line, then one that appended). The reader reads each record that parses, so one lost
 * newline does not cost the records on both sides of it.
 *
 * A record starts at a "{" followed by a quote. The line is read from the left: a record is the
 * object that starts there and ends where its braces close (strings skipped), if it parses and
 * only whitespace or byte-order marks follow it before the next start or the line's end; any
 * other part, up to the next start, was cut short (`cut`).
 *
 * Each part is scanned once, so a line of any number of records costs about one JSON.parse of it.
 * Only a cut-short part is scanned past its end (its braces never close where it stops): a line
 * of many of them could cost its length for each, so scanning stops after `MAX_SCAN` times the
 * line's length and the rest of the line is left unread (`unread`).
 */

export interface GluedRecords {
  /** The values that parsed, in line order. */
  records: unknown[];
  /** Parts that were not whitespace and parsed as no record: cut short, not read. */
  cut: number;
  /**
   * Where the line was left unread, too costly to take apart (see MAX_SCAN); undefined when it
   * was read to its end.
   */
  unread?: number;
}

/** Scanning beyond this many times a line's length (plus a little) is pathological input. */
const MAX_SCAN = 32;

const START = /\{\s*"/g;
const FAILED = Symbol("failed");

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return FAILED;
  }
}

/** Whitespace and byte-order marks: nothing between records. */
function blank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff;
}

/** The first record start after `from`, or the line's length. */
function nextStart(line: string, from: number): number {
  START.lastIndex = from + 1;
  const m = START.exec(line);
  return m === null ? line.length : m.index;
}

/**
 * Where the object opened at `from` closes (the index after its "}"), skipping strings; -1 when
 * it does not close on the line. `scanned` counts the characters looked at.
 */
function closeOf(line: string, from: number, scanned: { n: number }): number {
  let depth = 0;
  let inString = false;
  const n = line.length;
  let i = from;
  for (; i < n; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // "\": the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) break;
  }
  scanned.n += i - from;
  return i < n ? i + 1 : -1;
}

/**
 * The records glued on `line`, which JSON.parse refused whole; undefined when it holds fewer
 * than two parts (an ordinary bad line, or one record with blanks around it).
 */
export function gluedRecords(line: string): GluedRecords | undefined {
  const n = line.length;
  if (nextStart(line, 0) === n) return undefined;
  const out: GluedRecords = { records: [], cut: 0 };
  const scanned = { n: 0 };
  const budget = MAX_SCAN * n + 4096;
  let from = 0;
  while (from < n && blank(line.charCodeAt(from))) from++;
  while (from < n) {
    if (scanned.n > budget) {
      out.unread = from;
      break;
    }
    let end = -1;
    if (line.charCodeAt(from) === 123) {
      const close = closeOf(line, from, scanned);
      if (close > 0) {
        let after = close;
        while (after < n && blank(line.charCodeAt(after))) after++;
        if (after === n || nextStart(line, after - 1) === after) {
          const rec = parse(line.slice(from, close));
          if (rec !== FAILED) {
            out.records.push(rec);
            end = after;
          }
        }
      }
    }
    if (end < 0) {
      // No record starts and ends here: the part up to the next start was cut short.
      end = nextStart(line, from);
      out.cut++;
      while (end < n && blank(line.charCodeAt(end))) end++;
    }
    from = end;
  }
  return out.records.length + out.cut >= 2 && out.records.length > 0 ? out : undefined;
}
