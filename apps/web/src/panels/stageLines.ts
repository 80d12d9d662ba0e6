/**
 * Whether a trace has stage events at all. The log of a sample-controller without the STAGE lines
 * (docs/go-controller.md) still has passes — from its "Successfully synced" / "Error syncing"
 * lines — and no watch, enqueue, dequeue, read or write: the views say so rather than count five
 * stages that were never logged.
 */
import { STAGES, type Excerpt } from "@loopscope/trace";
import { KIND_CODES } from "../store/rowEncoder.ts";
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
