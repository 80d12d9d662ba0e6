/**
 * The time window that keeps a live trace's newest event in view while the view follows it.
 */

/** A window no narrower than this when following starts with no Foo selected (µs). */
const MIN_SPAN_US = 5_000_000;
/**
 * A start window no wider than this (µs): a Foo that never settles (a hot loop) has its whole
 * life as its default window, which would squeeze an hour of passes into the width.
 */
const MAX_START_SPAN_US = 10_000_000;

/**
 * The window to show next, or undefined to leave the current one: the current window (or, at the
 * start, `start` — 10 s wide when it is wider — else the whole trace), moved so its right edge
 * is just past the newest event.
 * `extent` is what is followed: the selected Foos' events when there are any, so other Foos'
 * activity does not carry the lanes away. Nothing while a whole trace is still being read in (a
 * replay server's): its first batch would set a window a few seconds wide for good, where the
 * loaded trace is shown whole and followed from there.
 * `anchor`, in folded time until the user zooms: the left edge to keep (see followFrom).
 */
export function followWindow(
  extent: readonly [number, number] | undefined,
  current: readonly [number, number] | undefined,
  loading: boolean,
  start?: readonly [number, number],
  anchor?: number,
): [number, number] | undefined {
  if (!extent || loading) return undefined;
  if (anchor !== undefined && current === undefined) {
    // Folded time gives each pass its width whatever the idle time between them: the window
    // grows from the anchor to the newest event, rather than sliding a creation's width along
    // until only the newest resync pass is left in view, stretched over the lanes.
    const right = Math.max(extent[1], start?.[1] ?? extent[1]);
    return [anchor, right + (right - anchor) * 0.02];
  }
  const long = start !== undefined && start[1] - start[0] > MAX_START_SPAN_US;
  const from = current ?? (long ? undefined : start);
  const span = from
    ? from[1] - from[0]
    : long
      ? MAX_START_SPAN_US
      : Math.max(MIN_SPAN_US, extent[1] - extent[0]);
  const right = extent[1] + span * 0.05;
  if (from && from[1] >= right) return current ? undefined : [from[0], from[1]];
  return [right - span, right];
}
