/**
 * The klog text header: `Lmmdd hh:mm:ss.uuuuuu pid file:line] message`
 * (kubernetes/klog klog.go formatHeader). It may be preceded by a prefix — journald's
 * `Dec 02 09:14:06 host sample-controller[48211]: `, `kubectl logs --timestamps`'s RFC 3339
 * time, a container runtime's `stderr F ` — so it is looked for anywhere in the line.
 */

export interface KlogHeader {
  level: "I" | "W" | "E" | "F";
  month: number;
  day: number;
  /** Microseconds since local midnight. */
  timeOfDayUs: number;
  pid: number;
  /** "controller.go:131" */
  src: string;

  /** Index in the line where the message starts. */
  msgStart: number;
  /** Index where the header starts (0 unless there is a prefix). */
  start: number;
}

const HEADER_ANYWHERE =
  /([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6}) +(\d+) ([^ \]:]+(?::[^ \]:]+)*?):(\d+)\]/;

function digit(line: string, i: number): number {
  const c = line.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
}

function two(line: string, i: number): number {
  return digit(line, i) * 10 + digit(line, i + 1);
}

/**
 * Where a header's parts lie in its line, filled in place by `readHeaderAt` (the reader reuses
 * one record for every line instead of building a KlogHeader per line).
 */
export interface HeaderSpan {
  level: KlogHeader["level"];
  month: number;
  day: number;
  timeOfDayUs: number;
  pid: number;
  /** The source location is line[srcStart, srcEnd). */
  srcStart: number;
  srcEnd: number;
  msgStart: number;
  start: number;
}

/**
 * Reads the header at `line[p]` into `out` without a regex or a substring (the hot path);
 * false when there is none there.
 */
export function readHeaderAt(line: string, p: number, out: HeaderSpan): boolean {
  const lv = line.charCodeAt(p);
  // I W E F
  if (lv !== 73 && lv !== 87 && lv !== 69 && lv !== 70) return false;
  const month = two(line, p + 1);
  const day = two(line, p + 3);
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  if (line.charCodeAt(p + 5) !== 32 || line.charCodeAt(p + 8) !== 58) return false;
  if (line.charCodeAt(p + 11) !== 58 || line.charCodeAt(p + 14) !== 46) return false;
  const h = two(line, p + 6);
  const m = two(line, p + 9);
  const s = two(line, p + 12);
  let frac = 0;
  for (let i = p + 15; i < p + 21; i++) {
    const d = digit(line, i);
    frac = frac * 10 + d;
  }
  if (h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60 || frac < 0) return false;
  let i = p + 21;
  if (line.charCodeAt(i) !== 32) return false;
  while (line.charCodeAt(i) === 32) i++;
  let pid = 0;
  const pidStart = i;
  for (let d = digit(line, i); d >= 0; d = digit(line, ++i)) pid = pid * 10 + d;
  if (i === pidStart || line.charCodeAt(i) !== 32) return false;
  // The source location "file:line": up to the first "]", without spaces, its last ":" followed
  // by digits only — so the ":" is the one right before the digits that end it.
  const srcStart = i + 1;
  const close = line.indexOf("]", srcStart);
  if (close < 0) return false;
  let colon = close - 1;
  while (digit(line, colon) >= 0) colon--;
  if (colon === close - 1 || colon <= srcStart || line.charCodeAt(colon) !== 58) return false;
  const space = line.indexOf(" ", srcStart);
  if (space >= 0 && space < close) return false;
  out.level = line[p] as KlogHeader["level"];
  out.month = month;
  out.day = day;
  out.timeOfDayUs = ((h * 60 + m) * 60 + s) * 1_000_000 + frac;
  out.pid = pid;
  out.srcStart = srcStart;
  out.srcEnd = close;
  out.msgStart = line.charCodeAt(close + 1) === 32 ? close + 2 : close + 1;
  out.start = p;
  return true;
}

/** The level of a header's first byte: I W E F, by character code. */
const LEVELS: (KlogHeader["level"] | undefined)[] = [];
LEVELS[73] = "I";
LEVELS[87] = "W";
LEVELS[69] = "E";
LEVELS[70] = "F";

/** Whether an int32 holds a zero byte (exact: no false positives, nor misses). */
function hasZeroByte(w: number): boolean {
  return ((w - 0x01010101) & ~w & 0x80808080) !== 0;
}

/**
 * readHeaderAt on the bytes of a line, `bytes[p, end)`, viewed by `view` at the same offsets: the
 * same answer, with offsets into `bytes` — for ASCII text, where byte and character offsets are
 * the same. Nothing at or past `end` is read as part of the header.
 */
export function readHeaderBytes(
  bytes: Uint8Array,
  view: DataView,
  p: number,
  end: number,
  out: HeaderSpan,
): boolean {
  // The shortest header, "I0102 15:04:05.000000 1 a:1]", has 28 characters.
  if (end - p < 28) return false;
  const level = LEVELS[bytes[p]];
  if (level === undefined) return false;
  if (bytes[p + 5] !== 32 || bytes[p + 8] !== 58 || bytes[p + 11] !== 58) return false;
  if (bytes[p + 14] !== 46 || bytes[p + 21] !== 32) return false;
  const mo1 = bytes[p + 1] - 48;
  const mo2 = bytes[p + 2] - 48;
  const d1 = bytes[p + 3] - 48;
  const d2 = bytes[p + 4] - 48;
  const h1 = bytes[p + 6] - 48;
  const h2 = bytes[p + 7] - 48;
  const mi1 = bytes[p + 9] - 48;
  const mi2 = bytes[p + 10] - 48;
  const s1 = bytes[p + 12] - 48;
  const s2 = bytes[p + 13] - 48;
  const f1 = bytes[p + 15] - 48;
  const f2 = bytes[p + 16] - 48;
  const f3 = bytes[p + 17] - 48;
  const f4 = bytes[p + 18] - 48;
  const f5 = bytes[p + 19] - 48;
  const f6 = bytes[p + 20] - 48;
  // Each is a digit when 0 ≤ d ≤ 9: OR-ed together, d and 9 - d of all of them stay ≥ 0 only then
  // (one test instead of a branch per digit).
  const any = mo1 | mo2 | d1 | d2 | h1 | h2 | mi1 | mi2 | s1 | s2 | f1 | f2 | f3 | f4 | f5 | f6;
  const nines =
    (9 - mo1) | (9 - mo2) | (9 - d1) | (9 - d2) | (9 - h1) | (9 - h2) | (9 - mi1) | (9 - mi2);
  const fracNines =
    (9 - s1) | (9 - s2) | (9 - f1) | (9 - f2) | (9 - f3) | (9 - f4) | (9 - f5) | (9 - f6);
  if ((any | nines | fracNines) < 0) return false;
  const month = mo1 * 10 + mo2;
  const day = d1 * 10 + d2;
  const h = h1 * 10 + h2;
  const m = mi1 * 10 + mi2;
  const s = s1 * 10 + s2;
  if (month < 1 || month > 12 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return false;
  const frac = ((((f1 * 10 + f2) * 10 + f3) * 10 + f4) * 10 + f5) * 10 + f6;
  let i = p + 22;
  while (i < end && bytes[i] === 32) i++;
  let pid = 0;
  const pidStart = i;
  while (i < end) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) break;
    pid = pid * 10 + d;
    i++;
  }
  if (i === pidStart || i >= end || bytes[i] !== 32) return false;
  const srcStart = i + 1;
  // Up to the first "]", no spaces on the way; its last ":" right before the digits that end it.
  // Four bytes at a time while they hold neither "]" nor " ", then byte by byte.
  let close = srcStart;
  while (close + 4 <= end) {
    const w = view.getInt32(close, true);
    if (hasZeroByte(w ^ 0x5d5d5d5d) || hasZeroByte(w ^ 0x20202020)) break;
    close += 4;
  }
  while (close < end && bytes[close] !== 93) {
    if (bytes[close] === 32) return false;
    close++;
  }
  if (close >= end) return false;
  let colon = close - 1;
  for (let d = bytes[colon] - 48; d >= 0 && d <= 9; d = bytes[colon] - 48) colon--;
  if (colon === close - 1 || colon <= srcStart || bytes[colon] !== 58) return false;
  out.level = level;
  out.month = month;
  out.day = day;
  out.timeOfDayUs = ((h * 60 + m) * 60 + s) * 1_000_000 + frac;
  out.pid = pid;
  out.srcStart = srcStart;
  out.srcEnd = close;
  out.msgStart = close + 1 < end && bytes[close + 1] === 32 ? close + 2 : close + 1;
  out.start = p;
  return true;
}

/** A record for readHeaderAt to fill. */
export function headerSpan(): HeaderSpan {
  return {
    level: "I",
    month: 0,
    day: 0,
    timeOfDayUs: 0,
    pid: 0,
    srcStart: 0,
    srcEnd: 0,
    msgStart: 0,
    start: 0,
  };
}

/** Reads the header of `line` into `out`: at its start, else after a prefix; false if none. */
export function findHeader(line: string, out: HeaderSpan): boolean {
  if (readHeaderAt(line, 0, out)) return true;
  const m = HEADER_ANYWHERE.exec(line);
  return m !== null && readHeaderAt(line, m.index, out);
}

function parseAt(line: string, p: number): KlogHeader | undefined {
  const h = headerSpan();
  if (!readHeaderAt(line, p, h)) return undefined;
  return {
    level: h.level,
    month: h.month,
    day: h.day,
    timeOfDayUs: h.timeOfDayUs,
    pid: h.pid,
    src: line.slice(h.srcStart, h.srcEnd),
    msgStart: h.msgStart,
    start: h.start,
  };
}

/** "controller.go" from "pkg/controller.go:131". */
export function baseFile(src: string): string {
  const colon = src.lastIndexOf(":");
  const slash = src.lastIndexOf("/", colon);
  return src.slice(slash + 1, colon);
}

export function parseKlogHeader(line: string): KlogHeader | undefined {
  const direct = parseAt(line, 0);
  if (direct) return direct;
  const m = HEADER_ANYWHERE.exec(line);
  return m ? parseAt(line, m.index) : undefined;
}

/** A four-digit year found in the prefix before the header (RFC 3339 times carry one). */
export function yearInPrefix(line: string, headerStart: number): number | undefined {
  if (headerStart < 10) return undefined;
  const m = /(\d{4})-\d\d-\d\d[T ]/.exec(line.slice(0, headerStart));
  return m ? Number(m[1]) : undefined;
}
