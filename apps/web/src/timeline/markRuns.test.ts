import { describe, expect, it } from "vitest";
import type { MarkStyle } from "./marks.ts";
import { markRuns, RUN_GAP_PX, type PaintedMark } from "./markRuns.ts";

const circle: MarkStyle = { glyph: "circle", color: "#0af", label: "" };
const square: MarkStyle = { glyph: "square", color: "#0af", label: "" };
const merged: MarkStyle = { glyph: "hollow-diamond", color: "#e90", label: "" };
const at = (xs: number[], style = circle): PaintedMark[] => xs.map((x, row) => ({ x, row, style }));

describe("mark runs (level of detail)", () => {
  it("paints a lane with a mark in every pixel column as one shape, not one per mark", () => {
    const marks = at(Array.from({ length: 600 }, (_, i) => 100 + i + (i % 3) * 0.4));
    const runs = markRuns(marks);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ x0: 100, count: 600 });
    expect(runs[0].x1).toBeCloseTo(699.8);
  });

  it("keeps marks apart where their glyphs would not touch, or their styles differ", () => {
    expect(markRuns(at([0, 1, 2 + RUN_GAP_PX + 0.5, 10])).map((r) => r.count)).toEqual([2, 1, 1]);
    const mixed = [...at([0, 1]), ...at([2, 3], square), ...at([4], circle)];
    expect(markRuns(mixed).map((r) => [r.style.glyph, r.count])).toEqual([
      ["circle", 2],
      ["square", 2],
      ["circle", 1],
    ]);
  });

  it("never merges outlined glyphs, nor marks out of time order", () => {
    expect(markRuns(at([0, 1, 2], merged))).toHaveLength(3);
    expect(markRuns(at([5, 4, 3]))).toHaveLength(3);
  });
});
