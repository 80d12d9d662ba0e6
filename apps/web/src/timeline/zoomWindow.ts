/**
 * Zoom and pan by a step, for the keyboard: the windows a wheel notch or a drag would give, worked
 * out on the axis the lanes show (screen space, so folded time stays folded), in wall time.
 */
import type { TimeAxis } from "./timeScale.ts";

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
