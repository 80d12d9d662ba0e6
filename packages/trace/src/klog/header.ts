/**
 * The klog text header: `Lmmdd hh:mm:ss.uuuuuu pid file:line] message`
 * (kubernetes/klog klog.go formatHeader). It may be preceded by a prefix — journald's
 * `Dec 02 09:14:06 host sample-controller[48211]: `, `kubectl logs --timestamps`'s RFC 3339
 * time, a container runtime's `stderr F ` — so it is looked for anywhere in the line.
 */

import { indexOfEither, shadowBytes } from "./byte-span.ts";

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
}

/** The level of a header's first byte: I W E F, by character code. */
const LEVELS: (KlogHeader["level"] | undefined)[] = [];
LEVELS[73] = "I";
LEVELS[87] = "W";
LEVELS[69] = "E";
LEVELS[70] = "F";

/** The number the two ASCII digits bytes[i, i + 2) spell, or -1. */
function twoDigits(bytes: Uint8Array, i: number): number {
  const a = bytes[i] - 48;
  const b = bytes[i + 1] - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** The number the `n` ASCII digits bytes[i, i + n) spell, or -1. */
function digitsAt(bytes: Uint8Array, i: number, n: number): number {
  let x = 0;
  for (const end = i + n; i < end; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return -1;
    x = x * 10 + d;
  }
  return x;
}

/**
 * Reads the header at the start of the line `bytes[p, end)` into `out`; false when there is none
 * there. Nothing at or past `end` is read as part of the header. (A line that came as text is
 * read on its shadowBytes.)
 */
export function readHeaderBytes(
  bytes: Uint8Array,
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
  const month = twoDigits(bytes, p + 1);
  const day = twoDigits(bytes, p + 3);
  const h = twoDigits(bytes, p + 6);
  const m = twoDigits(bytes, p + 9);
  const s = twoDigits(bytes, p + 12);
  const us = digitsAt(bytes, p + 15, 6);
  if (month < 1 || month > 12 || day < 1 || day > 31 || h < 0 || h > 23) return false;
  if (m < 0 || m > 59 || s < 0 || s > 60 || us < 0) return false;
  let i = p + 22;
  while (i < end && bytes[i] === 32) i++;
  let pid = 0;
  const pidStart = i;
  for (; i < end; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) break;
    pid = pid * 10 + d;
  }
  if (i === pidStart || i >= end || bytes[i] !== 32) return false;
  const srcStart = i + 1;
  // Up to the first "]", no spaces on the way; its last ":" right before the digits that end it.
  const close = indexOfEither(bytes, srcStart, end, 93, 32); // "]", " "
  if (close >= end || bytes[close] !== 93) return false;
  let colon = close - 1;
  for (let d = bytes[colon] - 48; d >= 0 && d <= 9; d = bytes[colon] - 48) colon--;
  if (colon === close - 1 || colon <= srcStart || bytes[colon] !== 58) return false;
  out.level = level;
  out.month = month;
  out.day = day;
  out.timeOfDayUs = ((h * 60 + m) * 60 + s) * 1_000_000 + us;
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
  };
}

/**
 * A header after a prefix in the line bytes[start, end), read into `out`: found by its shape in
 * `text` (the same characters at the same offsets), then read as at a line's start.
 */
export function readPrefixedHeader(
  bytes: Uint8Array,
  text: string,
  start: number,
  end: number,
  out: HeaderSpan,
): boolean {
  const m = HEADER_ANYWHERE.exec(text.slice(start, end));
  return m !== null && readHeaderBytes(bytes, start + m.index, end, out);
}

/** "controller.go" from "pkg/controller.go:131". */
export function baseFile(src: string): string {
  const colon = src.lastIndexOf(":");
  const slash = src.lastIndexOf("/", colon);
  return src.slice(slash + 1, colon);
}

/** The first klog header in `line` at or after `from`. */
export function parseKlogHeader(line: string, from = 0): KlogHeader | undefined {
  const bytes = shadowBytes(line, NO_BYTES);
  const h = headerSpan();
  const end = line.length;
  const found =
    readHeaderBytes(bytes, from, end, h) || readPrefixedHeader(bytes, line, from, end, h);
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

/**
 * A four-digit year in the text before a line's header (RFC 3339 times carry one), or before a
 * header-less STAGE line's tag (log.Printf's `2024/05/01 09:46:50` too).
 */
export function yearInPrefix(prefix: string): number | undefined {
  if (prefix.length < 10) return undefined;
  const m = /(\d{4})(?:-\d\d-\d\d[T ]|\/\d\d\/\d\d )/.exec(prefix);
  return m ? Number(m[1]) : undefined;
}
