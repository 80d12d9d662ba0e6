/**
 * klog text lines (kubernetes/klog text header, see docs/stages.md §4): what the Go
 * sample-controller would print, so `loopscope run --klog` and `up -v=2 2>&1 | tee` produce logs
 * the klog replayer reads like a real controller's.
 *
 * Header: `Lmmdd hh:mm:ss.uuuuuu <pid right-aligned to 7> file:line] msg`, local time, no year.
 */
import { canonicalText, type UnsequencedEvent } from "@loopscope/trace";

export type Severity = "I" | "W" | "E" | "F";

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** The klog header for a time in µs since the epoch. */
export function klogHeader(severity: Severity, tsMicros: number, src: string, pid: number): string {
  const d = new Date(Math.floor(tsMicros / 1000));
  const micros = Math.floor(tsMicros % 1_000_000);
  return (
    `${severity}${pad(d.getMonth() + 1, 2)}${pad(d.getDate(), 2)} ` +
    `${pad(d.getHours(), 2)}:${pad(d.getMinutes(), 2)}:${pad(d.getSeconds(), 2)}.${pad(micros, 6)} ` +
    `${String(pid).padStart(7, " ")} ${src}] `
  );
}

/** The STAGE line for a stage event (undefined for pass ends and notes, which have none). */
export function stageLine(e: UnsequencedEvent, pid: number): string | undefined {
  if (e.stage === "done" || e.stage === "note") return undefined;
  return klogHeader("I", e.ts, e.src ?? "controller.ts:0", pid) + canonicalText(e);
}

/** A structured (InfoS/ErrorS-style) line: quoted message, then key="value" pairs. */
export function structuredLine(
  severity: Severity,
  tsMicros: number,
  src: string,
  pid: number,
  msg: string,
  pairs: Array<[string, string | number]>,
): string {
  let out = klogHeader(severity, tsMicros, src, pid) + JSON.stringify(msg);
  for (const [k, v] of pairs) out += ` ${k}=${typeof v === "number" ? v : JSON.stringify(v)}`;
  return out;
}
