/**
 * What is under the pointer: the nearest mark on the lane (within a few px), else the pass band
 * there. Works in the same coordinates as draw.ts (canvas px, lane area scrolled by scrollY).
 */
import { STAGES } from "@loopscope/trace";
import type { DrawInput } from "./draw.ts";
import { axisHeight } from "./draw.ts";
import { passSpan } from "./fold.ts";
import { MIN_BAND_PX } from "./layout.ts";
import { passRange } from "./passRange.ts";

export type Hit =
  | { kind: "event"; seq: number; key: string }
  | { kind: "pass"; key: string; index: number }
  | { kind: "group"; key: string };

const RADIUS_PX = 6;

export function hitTest(input: DrawInput, px: number, py: number): Hit | undefined {
  const top = axisHeight(input);
  if (py < top) return undefined;
  const y = py - top + input.scrollY;
  const g = input.groups.find((gr) => y >= gr.y && y < gr.y + gr.height);
  if (!g) return undefined;
  const lane = g.lanes.find((l) => y >= l.y && y < l.y + l.height);
  const store = input.session.store;
  if (lane) {
    const code = STAGES.indexOf(lane.stage);
    const rows = store.rowsOf(g.key);
    let best = -1;
    let bestD = RADIUS_PX;
    const [from, to] = store.rowRange(
      g.key,
      rows,
      input.axis.invert(px - RADIUS_PX - 1),
      input.axis.invert(px + RADIUS_PX + 1),
    );
    for (let i = from; i < to; i++) {
      const row = rows[i];
      if (store.stage.data[row] !== code) continue;
      const t = store.ts.data[row];
      if (t > input.until) continue;
      const d = Math.abs(input.axis.x(t) - px);
      if (d <= bestD) {
        bestD = d;
        best = row;
      }
    }
    if (best >= 0) return { kind: "event", seq: store.seq.get(best), key: g.key };
  }
  const t = input.axis.invert(px);
  const slack = (input.axis.invert(px + MIN_BAND_PX) - t) | 0;
  const passes = input.session.passesOf(g.key);
  const [from, to] = passRange(passes, t - slack, t + slack);
  for (let i = to - 1; i >= from; i--) {
    const p = passes[i];
    const [start, end] = passSpan(
      p.start,
      p.end ?? input.session.store.timeExtent()?.[1] ?? p.start,
    );
    if (t >= start - slack && t <= end + slack) return { kind: "pass", key: g.key, index: p.index };
  }
  return { kind: "group", key: g.key };
}
