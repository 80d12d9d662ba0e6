/**
 * Zoom and pan by a step, for the keyboard: the windows a wheel notch or a drag would give, worked
 * out on the axis the lanes show (screen space, so folded time stays folded), in wall time.
 */
import { foldT, foldU, type Fold } from "./fold.ts";
import type { TimeAxis } from "./timeScale.ts";

/** How much wider than the whole trace's fit the window can get, zooming out. */
export const MAX_ZOOM_OUT = 2;

/**
 * The window no wider than MAX_ZOOM_OUT times `all` (the whole trace's fit), as the axis measures
 * width (through `fold` in folded time, where time before and after the trace runs slowly: one
 * zoom-out step from the fit of a 273 s recording took the window to 15 years); a wider window
 * becomes that much about the trace's centre. In wall time too, it stays within MAX_ZOOM_OUT
 * times `all` about its centre, moved back inside (or cut to it) where it strays: a Foo of
 * thousands of passes is many fits wide folded, and half a fit of the slow margin beyond it is
 * centuries. Any window inside both, wherever it is, stays as it is.
 */
export function limitWindow(
  w: [number, number],
  all: [number, number],
  fold?: Fold,
): [number, number] {
  const u = (us: number) => (fold ? foldU(fold, us) : us);
  const t = (x: number) => (fold ? foldT(fold, x) : x);
  const a = u(all[0]);
  const b = u(all[1]);
  const most = (b - a) * MAX_ZOOM_OUT;
  if (!(most > 0)) return w;
  let r = w;
  if (u(w[1]) - u(w[0]) > most) {
    const c = (a + b) / 2;
    r = [t(c - most / 2), t(c + most / 2)];
  }
  return withinWall(r, all);
}

/** `w` moved back inside MAX_ZOOM_OUT times `all` about its centre (cut to it if wider). */
function withinWall(w: [number, number], all: [number, number]): [number, number] {
  const half = ((all[1] - all[0]) * MAX_ZOOM_OUT) / 2;
  const c = (all[0] + all[1]) / 2;
  const lo = c - half;
  const hi = c + half;
  const width = w[1] - w[0];
  if (width >= hi - lo) return [lo, hi];
  if (w[0] < lo) return [lo, lo + width];
  if (w[1] > hi) return [hi - width, hi];
  return w;
}

/**
 * The window `factor` times narrower (> 1 zooms in, < 1 out) about `anchor` (wall µs): it stays
 * where it is on the screen. An anchor outside the window zooms about its centre.
 */
export function zoomedWindow(axis: TimeAxis, factor: number, anchor?: number): [number, number] {
  const [r0, r1] = axis.range;
  const at = anchor === undefined ? NaN : axis.x(anchor);
  const px = at >= r0 && at <= r1 ? at : (r0 + r1) / 2;
  return [axis.invert(px - (px - r0) / factor), axis.invert(px + (r1 - px) / factor)];
}

/** The window moved by `fraction` of its width on the screen (> 0 later, < 0 earlier). */
export function pannedWindow(axis: TimeAxis, fraction: number): [number, number] {
  const [r0, r1] = axis.range;
  const by = fraction * (r1 - r0);
  return [axis.invert(r0 + by), axis.invert(r1 + by)];
}
