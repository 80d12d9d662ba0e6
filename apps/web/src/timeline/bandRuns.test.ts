import { describe, expect, it } from "vitest";
import { bandRuns, type BandPiece } from "./bandRuns.ts";

const band = (x0: number, x1: number, more: Partial<BandPiece> = {}): BandPiece => ({
  x0,
  x1,
  color: "#d55e00",
  hatch: true,
  own: false,
  ...more,
});

describe("band runs (level of detail)", () => {
  it("paints a zoomed-out hot loop's thousands of bands as one", () => {
    // 5,000 passes in 640 px: each MIN_BAND_PX wide, 0.128 px apart.
    const bands = Array.from({ length: 5000 }, (_, i) => band(100 + i * 0.128, 103 + i * 0.128));
    const runs = bandRuns(bands);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ from: 0, to: 5000, x0: 100 });
    expect(runs[0].edgeEnd).toBeCloseTo(103 + 4999 * 0.128);
  });

  it("keeps bands apart whose solid edges leave a gap, or whose styles differ", () => {
    const runs = bandRuns([
      band(0, 40),
      band(2, 50),
      band(6, 9),
      band(8, 20, { hatch: false }),
      band(9, 30, { color: "#0072b2", hatch: false }),
    ]);
    expect(runs.map((r) => [r.from, r.to])).toEqual([
      [0, 2],
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
    expect(runs[0]).toMatchObject({ x0: 0, edgeEnd: 5, chipEnd: 50 });
  });

  it("leaves a band painted with more than its style on its own", () => {
    const runs = bandRuns([band(0, 3), band(1, 4, { own: true }), band(2, 5), band(3, 6)]);
    expect(runs.map((r) => [r.from, r.to])).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
    ]);
  });
});
