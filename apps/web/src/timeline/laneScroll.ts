/**
 * The lanes' vertical scroll: how far it may go, and where it goes when a Foo is chosen. A short
 * window (below 1024×768) or a stack of Foos shows only some lanes; a Foo chosen from the objects
 * list — by keyboard too, where shift+wheel is no help — is scrolled into view, and a scroll left
 * from a taller stack never leaves a shorter one out of sight.
 */
import { totalHeight, type GroupBox } from "./layout.ts";

/** Room kept below the last group when scrolled to the end, px. */
const END_SLACK = 20;

/** The furthest the lanes scroll, for a lane area `viewport` px tall. */
export function maxLaneScroll(groups: readonly GroupBox[], viewport: number): number {
  return Math.max(0, totalHeight(groups) + END_SLACK - viewport);
}

/**
 * The scroll offset that shows `group` whole, moving as little as it can from `scrollY`: its top
 * when it is taller than the area (its header and first lanes, not its end).
 */
export function scrollToGroup(group: GroupBox, scrollY: number, viewport: number): number {
  if (group.y < scrollY || group.height > viewport) return group.y;
  if (group.y + group.height > scrollY + viewport) return group.y + group.height - viewport;
  return scrollY;
}
