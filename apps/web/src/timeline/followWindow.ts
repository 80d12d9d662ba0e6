/**
 * The time window that keeps a live trace's newest event in view while the view follows it.
 */

/** A window no narrower than this when following starts (µs): a fresh trace spans next to nothing. */
const MIN_SPAN_US = 5_000_000;

/**
 * The window to show next, or undefined to leave the current one: the current width (or, at the
 * start, the whole trace), its right edge just past the newest event. Nothing while a whole trace
 * is still being read in (a replay server's): its first batch would set a window a few seconds
 * wide for good, where the loaded trace is shown whole and followed from there.
 */
export function followWindow(
  extent: readonly [number, number] | undefined,
  current: readonly [number, number] | undefined,
  loading: boolean,
): [number, number] | undefined {
  if (!extent || loading) return undefined;
  const span = current ? current[1] - current[0] : Math.max(MIN_SPAN_US, extent[1] - extent[0]);
  const right = extent[1] + span * 0.05;
  return !current || current[1] < right ? [right - span, right] : undefined;
}
