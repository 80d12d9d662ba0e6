/**
 * The sample-controller's own pass-end lines, in every format it has printed
 * (reference: sample-controller.md §1.5):
 *
 *   v0.31+   "Successfully synced" objectName="default/example-foo"
 *            "Error syncing; requeuing for later retry" err="…" objectReference="default/example-foo"
 *   v0.27–30 "Successfully synced" resourceName="default/example-foo"
 *            error syncing 'default/example-foo': <err>, requeuing   (inside HandleError's text)
 *   ≤ v0.26  Successfully synced 'default/example-foo'
 *            error syncing 'default/example-foo': <err>, requeuing
 *
 * and the line of a key dropped instead of requeued, in the words of client-go's controllers
 * (the Deployment controller's "Dropping deployment out of the queue"): loopscope's Foo
 * controller prints it for a pass that fails while its queue shuts down, where upstream's
 * AddRateLimited is silently ignored (its "requeuing" line is then untrue):
 *
 *            "Dropping Foo out of the queue: …" err="…" objectReference="default/example-foo"
 */
import type { PassOutcome } from "../event.ts";
import { scanFields, pick } from "./fields.ts";

export interface PassMarker {
  key: string;
  outcome: PassOutcome;
  error?: string;
}

const MARKER_KEYS = ["objectname", "resourcename", "objectreference", "objectref", "key", "object"];

/** How the v0.31+ success line starts, up to its key (the klog reader's shortcut reads it). */
export const SYNCED = '"Successfully synced" objectName="';

/** How a dropped key's message starts (after the quote of a structured message), and goes on. */
const DROPPING = "Dropping ";
const OUT_OF_QUEUE = " out of the queue";

/** Cheap pre-check so that ordinary lines never pay for the full parse. */
export function mayBeMarker(msg: string, from: number): boolean {
  return msg.indexOf("ync", from) >= 0 || droppedAt(msg, from) >= 0;
}

export function parseMarker(msg: string, from: number): PassMarker | undefined {
  const dropped = droppedAt(msg, from);
  if (dropped >= 0) {
    // The key only from a field: in the message, a "Dropping" line names no key.
    const f = scanFields(msg, dropped);
    const key = pick(f, MARKER_KEYS);
    if (!key) return undefined;
    const err = pick(f, ["err", "error"]);
    return err !== undefined
      ? { key, outcome: "dropped", error: err }
      : { key, outcome: "dropped" };
  }
  const ok = msg.indexOf("Successfully synced", from);
  if (ok >= 0) {
    const key = quotedKey(msg, ok) ?? keyField(msg, from);
    return key ? { key, outcome: "synced" } : undefined;
  }
  const structured = msg.indexOf("Error syncing; requeuing", from);
  if (structured >= 0) {
    const f = scanFields(msg, from);
    const key = pick(f, MARKER_KEYS);
    if (!key) return undefined;
    const err = pick(f, ["err", "error"]);
    return err !== undefined
      ? { key, outcome: "requeued", error: err }
      : { key, outcome: "requeued" };
  }
  const legacy = msg.indexOf("rror syncing '", from);
  if (legacy >= 0) {
    const start = legacy + "rror syncing '".length;
    const close = msg.indexOf("'", start);
    if (close < 0) return undefined;
    const key = msg.slice(start, close);
    let error = msg.slice(close + 1).replace(/^:\s*/, "");
    error = error.replace(/,\s*requeuing.*$/, "").replace(/\\"/g, '"');
    return { key, outcome: "requeued", ...(error ? { error } : {}) };
  }
  return undefined;
}

function quotedKey(msg: string, from: number): string | undefined {
  const open = msg.indexOf("'", from);
  if (open < 0) return undefined;
  const close = msg.indexOf("'", open + 1);
  return close > open + 1 ? msg.slice(open + 1, close) : undefined;
}

function keyField(msg: string, from: number): string | undefined {
  return pick(scanFields(msg, from), MARKER_KEYS);
}

/**
 * Where a structured "Dropping <kind> out of the queue…" message begins (its opening quote), or
 * -1: only as the line's message, so a note that mentions such a line elsewhere ends no pass.
 */
function droppedAt(msg: string, from: number): number {
  const at = msg.charCodeAt(from) === 34 ? from + 1 : from;
  if (!msg.startsWith(DROPPING, at)) return -1;
  const kind = msg.indexOf(" ", at + DROPPING.length);
  return kind >= 0 && msg.startsWith(OUT_OF_QUEUE, kind) ? from : -1;
}
