/**
 * The klog text header: `Lmmdd hh:mm:ss.uuuuuu pid file:line] message`
 * (kubernetes/klog klog.go formatHeader). It may be preceded by a prefix — journald's
 * `Dec 02 09:14:06 host sample-controller[48211]: `, `kubectl logs --timestamps`'s RFC 3339
 * time, a container runtime's `stderr F ` — so it is looked for anywhere in the line.
 */

import { indexOfEither, shadowBytes, viewOf } from "./byte-span.ts";

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

/**
 * Where a header's parts lie in its line, filled in place by `readHeaderBytes` (the reader reuses
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
  /**
   * The last header readHeaderBytes read, to compare the next one with (a log's lines share their
   * second and their pid): see VALID … PID for the slots.
   */
  memo: Int32Array;
}

/** Slots of HeaderSpan.memo. */
/** 1 once the slots below hold a header's. */
const VALID = 0;
/** The bytes "mmdd", " hh:", "mm:s" and "s." as little-endian words. */
const DATE = 1;
const HOUR = 2;
const MINUTE = 3;
const SECOND = 4;
const MONTH = 5;
const DAY = 6;
const SECOND_OF_DAY = 7;
/** 1 when PID_WORDS hold the 8 bytes after the header's 22nd: a pid of 7 columns and a space. */
const PID_VALID = 8;
const PID_WORDS = 9;
const PID_WORDS2 = 10;
const PID = 11;
const MEMO_SIZE = 12;

/** The level of a header's first byte: I W E F, by character code. */
const LEVELS: (KlogHeader["level"] | undefined)[] = [];
LEVELS[73] = "I";
LEVELS[87] = "W";
LEVELS[69] = "E";
LEVELS[70] = "F";

/** Whether the four bytes of `w` are all ASCII digits. */
function allDigits(w: number): boolean {
  // A byte below "0" sets its top bit in the first term, one above "9" in the second; digits
  // neither borrow nor carry, so no byte leaks into the next.
  return (((w - 0x30303030) | (w + 0x46464646)) & 0x80808080) === 0;
}

/** The number the four ASCII digits of `w` spell (first digit in the low byte). */
function fourDigits(w: number): number {
  const d = w - 0x30303030;
  return (
    (d & 0xff) * 1000 + ((d >>> 8) & 0xff) * 100 + ((d >>> 16) & 0xff) * 10 + ((d >>> 24) & 0xff)
  );
}

/**
 * Reads the header at the start of the line `bytes[p, end)`, viewed by `view` at the same offsets,
 * into `out`; false when there is none there. Nothing at or past `end` is read as part of the
 * header. (A line that came as text is read on its shadowBytes.)
 *
 * The date and second, and the pid, are compared with those of the header read before (out.memo)
 * as words: a log's lines share them, and a compare costs less than reading the digits again.
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
  const memo = out.memo;
  const date = view.getInt32(p + 1, true);
  const hour = view.getInt32(p + 5, true);
  const minute = view.getInt32(p + 9, true);
  const second = view.getUint16(p + 13, true);
  let month: number;
  let day: number;
  let secondOfDay: number;
  if (
    memo[VALID] === 1 &&
    date === memo[DATE] &&
    hour === memo[HOUR] &&
    minute === memo[MINUTE] &&
    second === memo[SECOND]
  ) {
    month = memo[MONTH];
    day = memo[DAY];
    secondOfDay = memo[SECOND_OF_DAY];
  } else {
    if (bytes[p + 5] !== 32 || bytes[p + 8] !== 58 || bytes[p + 11] !== 58) return false;
    if (bytes[p + 14] !== 46) return false;
    const h1 = bytes[p + 6] - 48;
    const h2 = bytes[p + 7] - 48;
    const mi1 = bytes[p + 9] - 48;
    const mi2 = bytes[p + 10] - 48;
    const s1 = bytes[p + 12] - 48;
    const s2 = bytes[p + 13] - 48;
    // Each is a digit when 0 ≤ d ≤ 9: OR-ed together, d and 9 - d stay ≥ 0 only then.
    const any = h1 | h2 | mi1 | mi2 | s1 | s2;
    const nines = (9 - h1) | (9 - h2) | (9 - mi1) | (9 - mi2) | (9 - s1) | (9 - s2);
    if (!allDigits(date) || (any | nines) < 0) return false;
    const mmdd = fourDigits(date);
    month = (mmdd / 100) | 0;
    day = mmdd % 100;
    const h = h1 * 10 + h2;
    const m = mi1 * 10 + mi2;
    const s = s1 * 10 + s2;
    if (month < 1 || month > 12 || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return false;
    secondOfDay = (h * 60 + m) * 60 + s;
    memo[VALID] = 1;
    memo[DATE] = date;
    memo[HOUR] = hour;
    memo[MINUTE] = minute;
    memo[SECOND] = second;
    memo[MONTH] = month;
    memo[DAY] = day;
    memo[SECOND_OF_DAY] = secondOfDay;
  }
  const us4 = view.getInt32(p + 15, true);
  const us2 = view.getUint16(p + 19, true);
  const u5 = (us2 & 0xff) - 48;
  const u6 = (us2 >>> 8) - 48;
  if (!allDigits(us4) || (u5 | u6 | (9 - u5) | (9 - u6)) < 0) return false;
  const frac = fourDigits(us4) * 100 + u5 * 10 + u6;
  if (bytes[p + 21] !== 32) return false;
  let i: number;
  let pid: number;
  // The 8 bytes compared end before `end`: a remembered pid is followed by a location.
  const longEnough = p + 30 < end;
  const pid1 = longEnough ? view.getInt32(p + 22, true) : 0;
  const pid2 = longEnough ? view.getInt32(p + 26, true) : 0;
  if (
    longEnough &&
    memo[PID_VALID] === 1 &&
    pid1 === memo[PID_WORDS] &&
    pid2 === memo[PID_WORDS2]
  ) {
    pid = memo[PID];
    i = p + 29;
  } else {
    i = p + 22;
    while (i < end && bytes[i] === 32) i++;
    pid = 0;
    const pidStart = i;
    while (i < end) {
      const d = bytes[i] - 48;
      if (d < 0 || d > 9) break;
      pid = pid * 10 + d;
      i++;
    }
    if (i === pidStart || i >= end || bytes[i] !== 32) return false;
    // Remembered when the pid fills klog's 7 columns: the same 8 bytes then mean the same pid.
    memo[PID_VALID] = longEnough && i === p + 29 && pid < 2 ** 31 ? 1 : 0;
    memo[PID_WORDS] = pid1;
    memo[PID_WORDS2] = pid2;
    memo[PID] = pid;
  }
  const srcStart = i + 1;
  // Up to the first "]", no spaces on the way; its last ":" right before the digits that end it.
  const close = indexOfEither(view, bytes, srcStart, end, 93, 32); // "]", " "
  if (close >= end || bytes[close] !== 93) return false;
  let colon = close - 1;
  for (let d = bytes[colon] - 48; d >= 0 && d <= 9; d = bytes[colon] - 48) colon--;
  if (colon === close - 1 || colon <= srcStart || bytes[colon] !== 58) return false;
  out.level = level;
  out.month = month;
  out.day = day;
  out.timeOfDayUs = secondOfDay * 1_000_000 + frac;
  out.pid = pid;
  out.srcStart = srcStart;
  out.srcEnd = close;
  out.msgStart = close + 1 < end && bytes[close + 1] === 32 ? close + 2 : close + 1;
  out.start = p;
  return true;
}

/** A record for readHeaderBytes to fill. */
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
    memo: new Int32Array(MEMO_SIZE),
  };
}

/**
 * A header after a prefix in the line bytes[start, end), read into `out`: found by its shape in
 * `text` (the same characters at the same offsets), then read as at a line's start.
 */
export function readPrefixedHeader(
  bytes: Uint8Array,
  view: DataView,
  text: string,
  start: number,
  end: number,
  out: HeaderSpan,
): boolean {
  const m = HEADER_ANYWHERE.exec(text.slice(start, end));
  return m !== null && readHeaderBytes(bytes, view, start + m.index, end, out);
}

/** "controller.go" from "pkg/controller.go:131". */
export function baseFile(src: string): string {
  const colon = src.lastIndexOf(":");
  const slash = src.lastIndexOf("/", colon);
  return src.slice(slash + 1, colon);
}

export function parseKlogHeader(line: string): KlogHeader | undefined {
  const bytes = shadowBytes(line, NO_BYTES);
  const view = viewOf(bytes);
  const h = headerSpan();
  const end = line.length;
  const found =
    readHeaderBytes(bytes, view, 0, end, h) || readPrefixedHeader(bytes, view, line, 0, end, h);
  if (!found) return undefined;
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

const NO_BYTES = new Uint8Array(0);

/** A four-digit year in the text before a line's header (RFC 3339 times carry one). */
export function yearInPrefix(prefix: string): number | undefined {
  if (prefix.length < 10) return undefined;
  const m = /(\d{4})-\d\d-\d\d[T ]/.exec(prefix);
  return m ? Number(m[1]) : undefined;
}
