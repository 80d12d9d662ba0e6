/**
 * Emit → paint delays from the timeline's paint reports (lib/live-page.ts).
 *
 * An event counts as painted at the first frame that drew it or any later event: the timeline
 * shows one Foo's lanes, so the other Foos' events are never on screen themselves, but a frame
 * that drew a later seq drew a store holding them (the batch containing them, or a later one).
 * Frames are taken in time order; a frame that drew a lower seq than an earlier one (the view
 * moved) does not un-paint anything.
 */
import type { PaintFrame } from "./live-page.ts";

/**
 * Delay (ms) for each event `firstSeq + i` emitted at `emitAt[i]` (wall ms); NaN for an event no
 * frame has painted yet.
 */
export function paintDelays(
  firstSeq: number,
  emitAt: readonly number[],
  frames: readonly PaintFrame[],
): number[] {
  const sorted = [...frames].sort((a, b) => a.at - b.at);
  const out: number[] = [];
  let f = 0;
  let reached = 0;
  for (let i = 0; i < emitAt.length; i++) {
    const seq = firstSeq + i;
    while (reached < seq && f < sorted.length) reached = Math.max(reached, sorted[f++].drawnSeq);
    out.push(reached >= seq ? sorted[f - 1].at - emitAt[i] : NaN);
  }
  return out;
}
