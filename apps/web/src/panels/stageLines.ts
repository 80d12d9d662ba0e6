/**
 * Whether a trace has stage events at all. The log of a sample-controller without the STAGE lines
 * (docs/go-controller.md) still has passes — from its "Successfully synced" / "Error syncing"
 * lines — and no watch, enqueue, dequeue, read or write: the views say so rather than count five
 * stages that were never logged.
 */
import { STAGES, type Excerpt, type Stage, KIND_CODES } from "@loopscope/trace";
import type { TraceStore } from "../store/traceStore.ts";

/** The first kind code that is not a stage (KIND_CODES lists the five stages first). */
const FIRST_NON_STAGE = KIND_CODES.indexOf("done");

export function hasStageEvents(store: TraceStore): boolean {
  const codes = store.stage.data;
  for (let i = 0, n = store.length; i < n; i++) if (codes[i] < FIRST_NON_STAGE) return true;
  return false;
}

/**
 * Whether `excerpt`'s passes come from pass-end lines alone because the whole trace has no stage
 * lines (not merely this Foo's span). A trace that has some keeps the five stages' counts.
 */
export function passesWithoutStages(store: TraceStore, excerpt: Excerpt): boolean {
  if (excerpt.passes === 0 || STAGES.some((s) => excerpt.counts[s] > 0)) return false;
  return !hasStageEvents(store);
}

/**
 * The stages `loopscope proxy` cannot see on the wire: a controller's queue is in its memory
 * (the proxy infers an enqueue for each watch event it passes on), its worker's Get is unseen,
 * and its reads come from the informer's cache (only a GET that reaches the API is traced).
 */
export const OFF_THE_WIRE: readonly Stage[] = ["enqueue", "dequeue", "read"];

const ENQUEUE = KIND_CODES.indexOf("enqueue");
const wireScans = new WeakMap<TraceStore, { scanned: number; wire?: boolean }>();

/**
 * Whether the trace was recorded on the wire by `loopscope proxy` rather than logged by the
 * controller: its enqueues are marked inferred. The first enqueue decides; until one arrives (a
 * live trace) the rows are scanned on from where the last call stopped, so a call costs only the
 * rows since.
 */
export function isWireTrace(store: TraceStore): boolean {
  let scan = wireScans.get(store);
  if (!scan || scan.scanned > store.length) wireScans.set(store, (scan = { scanned: 0 }));
  if (scan.wire !== undefined) return scan.wire;
  const codes = store.stage.data;
  for (let i = scan.scanned, n = store.length; i < n; i++) {
    if (codes[i] !== ENQUEUE) continue;
    const e = store.event(i);
    return (scan.wire = e.stage === "enqueue" && e.inferred === true);
  }
  scan.scanned = store.length;
  return false;
}

/** The stages a trace could not have seen: OFF_THE_WIRE for a proxy's trace, none otherwise. */
export function unseenStages(store: TraceStore): readonly Stage[] {
  return isWireTrace(store) ? OFF_THE_WIRE : [];
}
