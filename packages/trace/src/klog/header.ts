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

/** Parses the header at the start of `line` without a regex (the hot path). */
function parseAt(line: string, p: number): KlogHeader | undefined {
  const lv = line[p];
  if (lv !== "I" && lv !== "W" && lv !== "E" && lv !== "F") return undefined;
  const month = two(line, p + 1);
  const day = two(line, p + 3);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  if (line.charCodeAt(p + 5) !== 32 || line.charCodeAt(p + 8) !== 58) return undefined;
  if (line.charCodeAt(p + 11) !== 58 || line.charCodeAt(p + 14) !== 46) return undefined;
  const h = two(line, p + 6);
  const m = two(line, p + 9);
  const s = two(line, p + 12);
  let frac = 0;
  for (let i = p + 15; i < p + 21; i++) {
    const d = digit(line, i);
    frac = frac * 10 + d;
  }
  if (h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60 || frac < 0) return undefined;
  let i = p + 21;
  if (line.charCodeAt(i) !== 32) return undefined;
  while (line.charCodeAt(i) === 32) i++;
  let pid = 0;
  const pidStart = i;
  for (let d = digit(line, i); d >= 0; d = digit(line, ++i)) pid = pid * 10 + d;
  if (i === pidStart || line.charCodeAt(i) !== 32) return undefined;
  const srcStart = i + 1;
  const close = line.indexOf("]", srcStart);
  if (close < 0) return undefined;
  const colon = line.lastIndexOf(":", close);
  if (colon <= srcStart) return undefined;
  for (let k = colon + 1; k < close; k++) if (digit(line, k) < 0) return undefined;
  if (colon + 1 === close) return undefined;
  const src = line.slice(srcStart, close);
  if (src.indexOf(" ") >= 0) return undefined;
  const msgStart = line.charCodeAt(close + 1) === 32 ? close + 2 : close + 1;
  return {
    level: lv,
    month,
    day,
    timeOfDayUs: ((h * 60 + m) * 60 + s) * 1_000_000 + frac,
    pid,
    src,
    msgStart,
    start: p,
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
