/**
 * The text an event stands for in an excerpt: the message of its log line when it was read from
 * one, otherwise the canonical STAGE line the Go patch would print (docs/stages.md).
 */
import type { TraceEvent } from "../event.ts";
import { parseKlogHeader } from "../klog/header.ts";

function pairs(o: Record<string, unknown>): string {
  return Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(
      ([k, v]) =>
        `${k}=${Array.isArray(v) ? v.join(",") : typeof v === "string" && /[\s"]/.test(v) ? JSON.stringify(v) : String(v)}`,
    )
    .join(" ");
}

/** The canonical STAGE line body for an event (no klog header). */
export function canonicalText(e: TraceEvent): string {
  switch (e.stage) {
    case "watch":
      return `STAGE/watch ${pairs({ kind: e.kind, event: e.event, key: e.key, rv: e.rv, oldRv: e.oldRv })}`;
    case "enqueue":
      return `STAGE/enqueue ${pairs({ key: e.key, len: e.len, merged: e.merged || undefined, cause: e.cause })}`;
    case "dequeue":
      return `STAGE/dequeue ${pairs({ key: e.key, len: e.len, worker: e.worker })}`;
    case "read":
      return `STAGE/read ${pairs({ key: e.key, rv: e.rv, generation: e.generation, found: e.found })}`;
    case "write":
      return `STAGE/write ${pairs({ verb: e.verb, target: e.target, rv: e.rv, code: e.code, reason: e.reason, changed: e.changed, fields: e.fields })}`;
    case "done":
      return `done ${pairs({ key: e.key, outcome: e.outcome, error: e.error, delayMs: e.delayMs })}`;
    case "note":
      return e.text;
  }
}

/** What follows the klog header in the event's raw line, or the canonical text. */
export function messageText(e: TraceEvent): string {
  if (e.raw !== undefined) {
    const h = parseKlogHeader(e.raw);
    if (h) return e.raw.slice(h.msgStart);
    const at = e.raw.indexOf("STAGE/");
    if (at >= 0) return e.raw.slice(at);
  }
  return canonicalText(e);
}
