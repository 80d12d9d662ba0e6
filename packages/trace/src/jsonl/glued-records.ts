/**
 * The JSON records on a line that is not one JSON value: records glued together — a newline lost
 * (`cat` of a recording whose last line had none, two lines joined in an editor, a lone "\r" for
 * an end of line) — or a record cut short and the next one written right after it (a writer that
 * died mid-line, then one that appended). The reader reads each record that parses, so one lost
 * newline does not cost the records on both sides of it.
 *
 * A record starts at a "{" followed by a quote. The line is read from the left: the shortest part
 * that parses as JSON ends where the next record starts; a part before the next start that parses
 * at no start was cut short (`cut`). Whitespace and byte-order marks between records are nothing.
 */

export interface GluedRecords {
  /** The values that parsed, in line order. */
  records: unknown[];
  /** Parts that were not whitespace and parsed as no record: cut short, not read. */
  cut: number;
}

/** Beyond these a line is not taken apart (each start may cost a JSON.parse of the line). */
const MAX_STARTS = 16;
const MAX_LENGTH = 1 << 16;

const NOTHING = /^[\s\uFEFF]*$/;
const FAILED = Symbol("failed");

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return FAILED;
  }
}

/**
 * The records glued on `line`, which JSON.parse refused whole; undefined when it holds fewer
 * than two parts (an ordinary bad line, or one record with blanks around it), is too long, or has
 * too many record starts to try.
 */
export function gluedRecords(line: string): GluedRecords | undefined {
  if (line.length > MAX_LENGTH) return undefined;
  const starts: number[] = [];
  const re = /\{\s*"/g;
  re.lastIndex = 1;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    if (starts.length === MAX_STARTS) return undefined;
    starts.push(m.index);
  }
  if (starts.length === 0) return undefined;
  const out: GluedRecords = { records: [], cut: 0 };
  let from = 0;
  let next = 0;
  while (from < line.length) {
    while (next < starts.length && starts[next] <= from) next++;
    const rest = parse(line.slice(from));
    if (rest !== FAILED) {
      out.records.push(rest);
      break;
    }
    let end = -1;
    for (let i = next; i < starts.length && end < 0; i++) {
      const part = parse(line.slice(from, starts[i]));
      if (part !== FAILED) {
        out.records.push(part);
        end = starts[i];
      }
    }
    if (end < 0) {
      // No record ends at any start: the part up to the next start was cut short.
      end = next < starts.length ? starts[next] : line.length;
      if (!NOTHING.test(line.slice(from, end))) out.cut++;
    }
    from = end;
  }
  return out.records.length + out.cut >= 2 && out.records.length > 0 ? out : undefined;
}
