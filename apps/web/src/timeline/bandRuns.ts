/**
 * Level of detail for pass bands. Zoomed out on a hot loop, thousands of bands (each at least
 * MIN_BAND_PX wide) fall a fraction of a pixel apart, and each was painted whole: a translucent
 * fill, a hatch, its opaque left edge and its cause chip — a 5,000-pass loop cost 20,000 fills a
 * frame. Where the opaque left edges of bands of one style overlap, what shows is that colour,
 * solid, from the first band's start to the last edge's end: whatever else those bands paint
 * there is the same colour (their fills, their hatch and their chips all take the style's colour).
 * Such a run is painted as one edge and one chip, plus the fill and hatch of the part of each band
 * that reaches past the solid edge. A band painted with more than its style (a selected pass's
 * outline, a new Foo's line) stays on its own.
 */

/** Widest opaque left edge a band has (narrower bands: their width). */
export const BAND_EDGE_PX = 3;

/** A band as painted: clipped to the lanes, in paint order. */
export interface BandPiece {
  x0: number;
  x1: number;
  color: string;
  hatch: boolean;
  /** Painted with more than its style (selection, a new Foo's line): never merged. */
  own: boolean;
}

/** Bands [from, to) painted as one: solid from x0 to edgeEnd, chips from x0 to chipEnd. */
export interface BandRun {
  from: number;
  to: number;
  x0: number;
  edgeEnd: number;
  chipEnd: number;
}

export function edgeEnd(b: { x0: number; x1: number }): number {
  return b.x0 + Math.min(BAND_EDGE_PX, b.x1 - b.x0);
}

/** The bands, in paint order, as runs to paint in that order (a band alone is a run of one). */
export function bandRuns(bands: readonly BandPiece[]): BandRun[] {
  const runs: BandRun[] = [];
  let run: BandRun | undefined;
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i];
    const prev = bands[i - 1];
    if (
      run &&
      !b.own &&
      !prev.own &&
      b.color === prev.color &&
      b.hatch === prev.hatch &&
      b.x0 >= run.x0 &&
      b.x0 <= run.edgeEnd
    ) {
      run.to = i + 1;
      run.edgeEnd = Math.max(run.edgeEnd, edgeEnd(b));
      run.chipEnd = Math.max(run.chipEnd, b.x1);
      continue;
    }
    run = { from: i, to: i + 1, x0: b.x0, edgeEnd: edgeEnd(b), chipEnd: b.x1 };
    runs.push(run);
  }
  return runs;
}
