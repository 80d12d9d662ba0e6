/**
 * Which rows of a long list of equal-height rows a scrolled view draws: the ones in its viewport
 * plus a few either side, so a scroll of a few rows needs no render before it paints. A trace can
 * hold 10k Foos; laying out a row per Foo on every refresh while a 1M-event file loaded was most
 * of the page's own work (scripts/bench/load.ts), and capping the list hid the rest of it.
 */
export interface RowWindow {
  /** First row drawn. */
  first: number;
  /** One past the last row drawn. */
  end: number;
}

/** Rows drawn beyond each edge of the viewport. */
export const OVERSCAN_ROWS = 8;

/**
 * The rows to draw of `count` rows `rowHeight` px tall, when the list's top is `scrolled` px above
 * the viewport's top (negative: below it) and the viewport is `viewport` px tall.
 */
export function rowWindow(
  count: number,
  rowHeight: number,
  scrolled: number,
  viewport: number,
  overscan = OVERSCAN_ROWS,
): RowWindow {
  const top = Math.floor(Math.max(0, scrolled) / rowHeight);
  const bottom = Math.ceil(Math.max(0, scrolled + viewport) / rowHeight);
  const first = Math.min(count, Math.max(0, top - overscan));
  return { first, end: Math.max(first, Math.min(count, bottom + overscan)) };
}

/**
 * The scroll offset change that brings row `row` whole into a viewport whose top is `scrolled` px
 * below the list's top: 0 when it is in view already.
 */
export function scrollToShow(
  row: number,
  rowHeight: number,
  scrolled: number,
  viewport: number,
): number {
  const top = row * rowHeight;
  if (top < scrolled) return top - scrolled;
  const bottom = top + rowHeight;
  if (bottom > scrolled + viewport) return bottom - (scrolled + viewport);
  return 0;
}
