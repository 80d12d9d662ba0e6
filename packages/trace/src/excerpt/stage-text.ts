/**
 * The text an event stands for in an excerpt: the message of its log line when it was read from
 * one, otherwise the STAGE line loopscope's controller logs for it (packages/controller's klog
 * text, which renders it with `canonicalText`), so a JSONL recording's excerpt reads as the klog
 * of the same run does.
 */
import type { TraceEvent, UnsequencedEvent } from "../event.ts";
import { parseKlogHeader } from "../klog/header.ts";

/** A value as klog prints it: quoted when it has to be (spaces, quotes, `=`, `\`, empty). */
function klogValue(v: unknown): string {
  const s = typeof v === "string" ? v : Array.isArray(v) ? v.join(",") : String(v);
  return s === "" || /[\s"=\\]/.test(s) ? JSON.stringify(s) : s;
}

/** ` k=v` for each pair with a value. */
function kv(pairs: Array<[string, unknown]>): string {
  let out = "";
  for (const [k, v] of pairs) if (v !== undefined) out += ` ${k}=${klogValue(v)}`;
  return out;
}

/**
 * The STAGE line body for an event (no klog header): the fields in docs/stages.md's order. A
 * pass end has no STAGE line (the controller logs "Successfully synced" and the like): it is
 * told as `done key=… outcome=…`.
 */
export function canonicalText(e: TraceEvent | UnsequencedEvent): string {
  switch (e.stage) {
    case "watch":
      return `STAGE/watch${kv([
        ["kind", e.kind],
        ["event", e.event],
        ["key", e.key],
        ["ns", e.ns],
        ["name", e.name],
        ["rv", e.rv],
        ["oldRv", e.oldRv],
        ["initial", e.initial],
      ])}`;
    case "enqueue":
      return `STAGE/enqueue${kv([
        ["key", e.key],
        ["len", e.len],
        ["merged", e.merged === false ? undefined : e.merged],
        ["cause", e.cause],
        ["delayMs", e.delayMs],
      ])}`;
    case "dequeue":
      return `STAGE/dequeue${kv([
        ["key", e.key],
        ["len", e.len],
        ["worker", e.worker],
      ])}`;
    case "read":
      return `STAGE/read${kv([
        ["key", e.key],
        ["rv", e.rv],
        ["generation", e.generation],
        ["found", e.found === false ? false : undefined],
      ])}`;
    case "write":
      return `STAGE/write${kv([
        ["verb", e.verb],
        ["target", e.target],
        ["rv", e.rv],
        ["code", e.code],
        ["reason", e.reason],
        ["changed", e.changed],
        ["fields", e.fields && e.fields.length > 0 ? e.fields : undefined],
        ["key", e.key],
      ])}`;
    case "done":
      return `done${kv([
        ["key", e.key],
        ["outcome", e.outcome],
        ["error", e.error],
        ["delayMs", e.delayMs],
      ])}`;
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
