import { describe, expect, it } from "vitest";
import type { Pass } from "@loopscope/trace";
import { passRange } from "./passRange.ts";

/** Just what passRange reads of a pass. */
const pass = (start: number, end?: number) => ({ start, end }) as Pass;

/** The passes of [t0, t1] by looking at each one: what passRange must keep. */
const overlapping = (passes: readonly Pass[], t0: number, t1: number) =>
  passes.flatMap((p, i) => (p.start <= t1 && (p.end === undefined || p.end >= t0) ? [i] : []));

describe("the passes a window can show", () => {
  // A hot loop: a pass every second, each 10 ms long.
  const hot = Array.from({ length: 5000 }, (_, i) => pass(i * 1e6, i * 1e6 + 10_000));

  it("are a few of a hot loop's thousands, found without looking at each", () => {
    const [from, to] = passRange(hot, 2_000_500_000, 2_004_000_000);
    expect([from, to]).toEqual([2001, 2005]);
    expect(overlapping(hot.slice(from, to), 2_000_500_000, 2_004_000_000)).toHaveLength(4);
  });

  it("keep every pass that reaches into the window, an open one and a long one too", () => {
    const passes = [pass(0, 100), pass(10, 5_000), pass(200, 300), pass(400), pass(500, 600)];
    for (const [t0, t1] of [
      [1_000, 2_000],
      [250, 260],
      [0, 5],
      [601, 700],
      [-10, -1],
    ]) {
      const [from, to] = passRange(passes, t0, t1);
      const kept = new Set(Array.from({ length: to - from }, (_, i) => from + i));
      for (const i of overlapping(passes, t0, t1))
        expect(kept.has(i), `${t0}..${t1}: ${i}`).toBe(true);
    }
    expect(passRange(passes, -10, -1)).toEqual([0, 0]);
  });

  it("looks at every pass when their starts do not ascend", () => {
    expect(passRange([pass(500, 600), pass(0, 10)], 0, 5)).toEqual([0, 2]);
  });

  it("sees passes added to the same array since it last looked", () => {
    const passes = [pass(0, 10)];
    expect(passRange(passes, 100, 200)).toEqual([1, 1]);
    passes.push(pass(150, 160));
    expect(passRange(passes, 100, 200)).toEqual([1, 2]);
  });
});
