/**
 * Step-through navigation: moves the view's selected event along the workshop's step list and
 * moves the replay playhead with it, so the lanes show exactly the events narrated so far.
 */
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import type { Pass } from "@loopscope/trace";
import { defaultWindow, windowShowing } from "../timeline/fit.ts";

/**
 * Selects event `seq` (alone: no pass stays selected) and moves the playhead to it, keeping it in view. `zoomToPass` (the
 * step-through): when the event's pass — or the pass a trigger feeds — is a sliver of the window,
 * zoom so it fills the middle third: a create's first passes come within ~60 ms of each other,
 * and at the creation's zoom the narrated one could not be told from its neighbours.
 */
export function goToSeq(
  session: TraceSession,
  view: ViewStore,
  seq: number,
  opts: { zoomToPass?: boolean } = {},
): void {
  const store = session.store;
  const row = store.rowOfSeq(seq);
  if (row < 0) return;
  const ts = store.ts.get(row);
  const s = view.get();
  let window = windowShowing(session, s.selectedKeys, s.window, ts);
  const key = store.keys.value(store.key.get(row));
  const pass = opts.zoomToPass && key ? passAround(session.passesOf(key), ts) : undefined;
  if (pass) {
    const shown = window ?? defaultWindow(session, s.selectedKeys);
    const end = Math.max(pass.end ?? ts, ts, pass.start);
    const dur = Math.max(end - pass.start, MIN_PASS_US);
    if (dur < (shown[1] - shown[0]) * SLIVER) window = [pass.start - dur, end + dur];
  }
  // The step is the one selection, as after ← →: a pass selected before (a click, ] ) would stay
  // highlighted with its causal arrows — drawn past the playhead, into lanes not yet narrated.
  view.set({
    selectedSeq: seq,
    selectedPass: undefined,
    playhead: ts,
    playing: false,
    follow: false,
    window,
  });
}

/** A pass narrower than this share of the window is zoomed to (see goToSeq). */
const SLIVER = 0.08;
/** Zoom no further than a pass of 200 µs would take it (a pass of one event has no length). */
const MIN_PASS_US = 200;

/** The pass at `ts` (start ≤ ts ≤ end), else the first to start after it (the one a trigger feeds). */
function passAround(passes: readonly Pass[], ts: number): Pass | undefined {
  let lo = 0;
  let hi = passes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (passes[mid]!.start <= ts) lo = mid + 1;
    else hi = mid;
  }
  const before = passes[lo - 1];
  if (before && (before.end === undefined || before.end >= ts)) return before;
  return passes[lo];
}

/** The step `dir` away from the current one (clamped), or the first step when none is current. */
export function neighbour(
  steps: readonly number[],
  current: number | undefined,
  dir: 1 | -1,
): number | undefined {
  if (steps.length === 0) return undefined;
  const i = current === undefined ? -1 : steps.indexOf(current);
  if (i < 0) {
    if (current === undefined) return steps[0];
    // Not a step (another key's event): the nearest step in that direction.
    return dir > 0 ? steps.find((s) => s > current) : [...steps].reverse().find((s) => s < current);
  }
  return steps[Math.min(steps.length - 1, Math.max(0, i + dir))];
}
