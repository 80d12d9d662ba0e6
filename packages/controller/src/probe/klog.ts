/**
 * klog text lines (kubernetes/klog text header, see docs/stages.md §4): what the Go
 * sample-controller would print, so `loopscope run --klog` and `up -v=2 2>&1 | tee` produce logs
 * the klog replayer reads like a real controller's.
 *
 * Header: `Lmmdd hh:mm:ss.uuuuuu <pid right-aligned to 7> file:line] msg`, local time, no year.
 */
import type { UnsequencedEvent } from "@loopscope/trace";

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

/** Go-quotes a value when it needs it (spaces, quotes, empty), as klog does for strings. */
export function klogValue(v: unknown): string {
  const s = typeof v === "string" ? v : Array.isArray(v) ? v.join(",") : String(v);
  return s === "" || /[\s"=\\]/.test(s) ? JSON.stringify(s) : s;
}

function kv(pairs: Array<[string, unknown]>): string {
  let out = "";
  for (const [k, v] of pairs) {
    if (v === undefined) continue;
    out += ` ${k}=${klogValue(v)}`;
  }
  return out;
}

/** The STAGE line for a stage event (undefined for non-stage records). */
export function stageLine(e: UnsequencedEvent, pid: number): string | undefined {
  const src = e.src ?? "controller.ts:0";
  let body: string;
  switch (e.stage) {
    case "watch":
      body = `STAGE/watch${kv([
        ["kind", e.kind],
        ["event", e.event],
        ["key", e.key],
        ["ns", e.ns],
        ["name", e.name],
        ["rv", e.rv],
        ["oldRv", e.oldRv],
      ])}`;
      break;
    case "enqueue":
      body = `STAGE/enqueue${kv([
        ["key", e.key],
        ["len", e.len],
        ["merged", e.merged === false ? undefined : e.merged],
        ["cause", e.cause],
        ["delayMs", e.delayMs],
      ])}`;
      break;
    case "dequeue":
      body = `STAGE/dequeue${kv([
        ["key", e.key],
        ["len", e.len],
        ["worker", e.worker],
      ])}`;
      break;
    case "read":
      body = `STAGE/read${kv([
        ["key", e.key],
        ["rv", e.rv],
        ["generation", e.generation],
        ["found", e.found === false ? false : undefined],
      ])}`;
      break;
    case "write":
      body = `STAGE/write${kv([
        ["verb", e.verb],
        ["target", e.target],
        ["rv", e.rv],
        ["code", e.code],
        ["reason", e.reason],
        ["changed", e.changed],
        ["fields", e.fields && e.fields.length > 0 ? e.fields : undefined],
        ["key", e.key],
      ])}`;
      break;
    default:
      return undefined;
  }
  return klogHeader("I", e.ts, src, pid) + body;
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
