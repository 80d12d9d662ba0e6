/**
 * Step-through navigation: moves the view's selected event along the workshop's step list and
 * moves the replay playhead with it, so the lanes show exactly the events narrated so far.
 */
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { windowShowing } from "../timeline/fit.ts";

export function goToSeq(session: TraceSession, view: ViewStore, seq: number): void {
  const store = session.store;
  const row = store.rowOfSeq(seq);
  if (row < 0) return;
  const ts = store.ts.get(row);
  const s = view.get();
  const window = windowShowing(session, s.selectedKeys, s.window, ts);
  view.set({ selectedSeq: seq, playhead: ts, playing: false, follow: false, window });
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
