/**
 * Level of detail for marks: a lane zoomed out to a mark in every pixel column would cost one
 * path fill per column (a 5,000-pass hot loop: ~3,000 fills a frame, a 300 ms frame under load).
 * Marks of one style close enough that their glyphs overlap into one shape are painted as that
 * shape instead: a row of circles a pixel or two apart is a capsule, of squares a rectangle, and
 * so on (see drawRun in draw.ts). The union differs from the row of glyphs by under a pixel.
 */
import type { Glyph, MarkStyle } from "./marks.ts";

/** A mark as painted: its centre and style (one per lane pixel column, see drawMarks). */
export interface PaintedMark {
  x: number;
  row: number;
  style: MarkStyle;
}

/** Marks of one style whose centres run from x0 to x1, each within RUN_GAP_PX of the next. */
export interface MarkRun {
  x0: number;
  x1: number;
  style: MarkStyle;
  count: number;
}

/**
 * Centres this close merge: a mark in each pixel column (the first of each is painted) lands
 * under 2 px from the previous one, and a capsule differs from circles 2 px apart by 0.1 px.
 */
export const RUN_GAP_PX = 2;

/** Glyphs drawn as outlines: a row of them is not the outline of their union, so never merged. */
const OUTLINED: ReadonlySet<Glyph> = new Set(["hollow-diamond", "cross"]);

/**
 * The marks of one lane, in paint order, as runs to paint in that order (so where marks of two
 * styles overlap, the later one is on top, as before).
 */
export function markRuns(marks: readonly PaintedMark[]): MarkRun[] {
  const runs: MarkRun[] = [];
  let run: MarkRun | undefined;
  for (const { x, style } of marks) {
    const d = run ? x - run.x1 : -1;
    if (
      run &&
      d >= 0 &&
      d <= RUN_GAP_PX &&
      run.style.glyph === style.glyph &&
      run.style.color === style.color &&
      !OUTLINED.has(style.glyph)
    ) {
      run.x1 = x;
      run.count++;
      continue;
    }
    run = { x0: x, x1: x, style, count: 1 };
    runs.push(run);
  }
  return runs;
}
