/**
 * Renders a TraceEvent as the line the patched Go sample-controller prints for it (the canonical
 * STAGE form of docs/stages.md, klog header included), so a generated trace can be replayed as
 * a klog log. Pass ends become the controller's own v0.31+ lines ("Successfully synced",
 * "Error syncing; requeuing for later retry"). klog has no year: the reader takes it from context.
 */
import type { TraceEvent } from "../../packages/trace/src/index.ts";

const PID = "48211";

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

/** "I1202 09:14:06.031344   48211 controller.go:131] " */
export function klogHeader(level: "I" | "W" | "E", tsMicros: number, src: string): string {
  const d = new Date(Math.floor(tsMicros / 1000));
  const us = tsMicros % 1_000_000;
  return `${level}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(us, 6)}   ${PID} ${src}] `;
}

/** Go's %q for the plain ASCII messages we write. */
const q = (s: string) => JSON.stringify(s);

export function klogLine(e: TraceEvent): string {
  const src = e.src ?? "controller.go:1";
  const I = klogHeader("I", e.ts, src);
  switch (e.stage) {
    case "watch":
      return `${I}STAGE/watch kind=${e.kind} event=${e.event} key=${e.key}${e.oldRv ? ` oldRv=${e.oldRv}` : ""}${e.rv ? ` rv=${e.rv}` : ""}`;
    case "enqueue":
      return `${I}STAGE/enqueue key=${e.key}${e.len !== undefined ? ` len=${e.len}` : ""}${e.cause ? ` cause=${e.cause}` : ""}${e.delayMs !== undefined ? ` delayMs=${e.delayMs}` : ""}`;
    case "dequeue":
      return `${I}STAGE/dequeue key=${e.key}${e.len !== undefined ? ` len=${e.len}` : ""}${e.worker ? ` worker=${e.worker}` : ""}`;
    case "read":
      return `${I}STAGE/read key=${e.key}${e.rv ? ` rv=${e.rv}` : ""}${e.generation !== undefined ? ` generation=${e.generation}` : ""}`;
    case "write":
      return (
        `${I}STAGE/write verb=${e.verb} target=${e.target}${e.rv ? ` rv=${e.rv}` : ""}` +
        `${e.code !== undefined ? ` code=${e.code}` : ""}${e.reason ? ` reason=${e.reason}` : ""}` +
        `${e.changed !== undefined ? ` changed=${e.changed}` : ""}${e.fields?.length ? ` fields=${e.fields.join(",")}` : ""}`
      );
    case "done":
      return e.outcome === "synced"
        ? `${I}"Successfully synced" objectName=${q(e.key)}`
        : `${klogHeader("E", e.ts, src)}"Error syncing; requeuing for later retry" err=${q(e.error ?? "error")} objectReference=${q(e.key)}`;
    case "note":
      return `${I}${q(e.text)}`;
  }
}
