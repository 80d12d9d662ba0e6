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

/** Cheap pre-check so that ordinary lines never pay for the full parse. */
export function mayBeMarker(msg: string, from: number): boolean {
  return msg.indexOf("ync", from) >= 0;
}

export function parseMarker(msg: string, from: number): PassMarker | undefined {
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
