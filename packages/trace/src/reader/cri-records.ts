/**
 * A CRI container log: a container's output as containerd and CRI-O write it where kubelet keeps
 * it — /var/log/pods/<ns>_<pod>_<uid>/<container>/<restart>.log, linked from
 * /var/log/containers/*.log — one record a line (kubelet's parseCRILog reads them back):
 *
 *   2026-12-02T10:00:00.123456789Z stderr F I1202 10:00:00.123456       1 controller.go:100] STAGE/watch …
 *
 * `<time> <stream> <tag> <log>`: an RFC 3339 time, `stdout` or `stderr`, and `F` for a record
 * that ends its line, or `P` for a piece of a line longer than the runtime's 16 KiB buffer, which
 * its stream's next records continue up to one tagged `F` (the other stream's records come
 * between them). A whole record is a klog line with a prefix: the klog reader finds its header
 * after it and the year in its time. Only the pieces need this file: they are joined
 * (partial-lines.ts) into the record the runtime would have written had it not split the line —
 * the first record's time and stream, `F`, the pieces — and that is read, on the line of the first
 * record.
 */
import { sameSpan } from "../klog/byte-span.ts";
import type { JoinedLine, PartialLines } from "./partial-lines.ts";

const SPACE = 32;
const TAG_P = 80;
const TAG_F = 70;
/** An RFC 3339 time's date and time of day; `d` a digit. */
const DATE_TIME = new TextEncoder().encode("dddd-dd-ddTdd:dd:dd");
const D = 100;
/** An RFC 3339 time's length: `2006-01-02T15:04:05Z`, `2006-01-02T15:04:05.999999999-07:00`. */
const SHORTEST = 20;
const LONGEST = 35;
const STDOUT = new TextEncoder().encode("stdout");
const STDERR = new TextEncoder().encode("stderr");

function digit(bytes: Uint8Array, i: number, end: number): boolean {
  return i < end && bytes[i] >= 48 && bytes[i] <= 57;
}

/**
 * The end of the RFC 3339 time `2006-01-02T15:04:05[.999999999](Z|±07:00)` that bytes[start, end)
 * starts with, or -1.
 */
function timeEnd(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < SHORTEST) return -1;
  for (let i = 0; i < DATE_TIME.length; i++) {
    const want = DATE_TIME[i];
    if (want === D ? !digit(bytes, start + i, end) : bytes[start + i] !== want) return -1;
  }
  let i = start + DATE_TIME.length;
  if (bytes[i] === 46) {
    const fraction = ++i;
    while (digit(bytes, i, end)) i++;
    if (i === fraction) return -1;
  }
  if (i >= end) return -1;
  const zone = bytes[i];
  if (zone === 90) return i + 1; // Z
  if (zone !== 43 && zone !== 45) return -1; // + -
  const offset =
    digit(bytes, i + 1, end) &&
    digit(bytes, i + 2, end) &&
    bytes[i + 3] === 58 &&
    digit(bytes, i + 4, end) &&
    digit(bytes, i + 5, end);
  return offset ? i + 6 : -1;
}

/**
 * Where the stream of the CRI record bytes[start, end) would begin, or -1 where there is none: a
 * look as cheap as can be, for every line that starts with a digit (a klog line starts with its
 * level's letter) — a space after the time's shortest length and before its longest, and the
 * stream's "s" after it. A `kubectl logs --timestamps` line has its header's level letter there.
 */
export function streamAt(bytes: Uint8Array, start: number, end: number): number {
  if (!digit(bytes, start, end)) return -1;
  let t = start + SHORTEST;
  const last = Math.min(end - 1, start + LONGEST + 1);
  while (t < last && bytes[t] !== SPACE) t++;
  return t < last && bytes[t + 1] === 115 ? t + 1 : -1;
}

/**
 * Where the log of the CRI record bytes[start, end) begins, past `<time> <stream> <tag> `; -1 when
 * the line has not that shape (a plain klog line, `kubectl logs --timestamps`' time then header).
 * (A line that came as text is read on its shadowBytes.)
 */
export function criLogAt(bytes: Uint8Array, start: number, end: number): number {
  const t = streamAt(bytes, start, end) - 1;
  // " stdout F " after the time.
  if (t < 0 || end - t < 10) return -1;
  if (timeEnd(bytes, start, end) !== t || bytes[t + 7] !== SPACE) return -1;
  const tag = bytes[t + 8];
  if ((tag !== TAG_P && tag !== TAG_F) || bytes[t + 9] !== SPACE) return -1;
  const stream = sameSpan(bytes, t + 1, STDOUT, 0, 6) || sameSpan(bytes, t + 1, STDERR, 0, 6);
  return stream ? t + 10 : -1;
}

/**
 * Takes the line text[start, end) (its bytes: bytes[start, end), or its shadowBytes; `stream`:
 * their streamAt, not -1), line `no` of the file, into `lines` if it is a CRI record
 * that is a piece of a longer line: one tagged `P`, or the `F` that ends its stream's pieces. What
 * that gives is PartialLines.take's answer (the joined line, once its `F` came). False, and
 * nothing taken, for any other line, to be read as it is.
 */
export function takeCriRecord(
  lines: PartialLines,
  bytes: Uint8Array,
  text: string,
  start: number,
  stream: number,
  end: number,
  no: number,
): JoinedLine | number | undefined | false {
  // While no stream's line is open, a record tagged F (almost every one) is a whole line, to be
  // read as it is: its shape is looked at no further.
  if (bytes[stream + 7] !== TAG_P && lines.openLines === 0) return false;
  const log = criLogAt(bytes, start, end);
  if (log < 0) return false;
  const ends = bytes[log - 2] === TAG_F;
  // "stdout" and "stderr" differ in their fourth letter.
  const name = bytes[log - 6] === 111 ? "stdout" : "stderr";
  if (ends && !lines.has(name)) return false;
  return lines.take(name, `${text.slice(start, log - 2)}F `, text.slice(log, end), ends, no);
}
