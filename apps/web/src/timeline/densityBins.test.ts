import { describe, expect, it } from "vitest";
import { binEdges, binOf } from "./densityBins.ts";
import { buildFold } from "./fold.ts";
import { makeTimeAxis, type TimeAxis } from "./timeScale.ts";

const BINS = 240;

/** The bin through the axis itself, one event at a time: what the edges must agree with. */
function binThroughAxis(axis: TimeAxis, us: number): number {
  const [r0, r1] = axis.range;
  const px = Math.min(r1, Math.max(r0, axis.x(us)));
  return Math.min(BINS - 1, Math.floor(((px - r0) * BINS) / (r1 - r0)));
}

/** 300 passes of 5–50 ms, 0.2–30 s apart: a fold of many stretches, most of them folded gaps. */
function trace(): { times: number[]; passes: [number, number][] } {
  let x = 11;
  const random = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  const times: number[] = [];
  const passes: [number, number][] = [];
  let t = 1_796_202_000_000_000;
  for (let i = 0; i < 300; i++) {
    const end = t + 5_000 + Math.floor(random() * 45_000);
    passes.push([t, end]);
    for (let k = 0; k < 6; k++) times.push(t + Math.floor(((end - t) * k) / 5));
    t = end + 200_000 + Math.floor(random() * 30_000_000);
  }
  return { times, passes };
}

describe("density bins", () => {
  const { times, passes } = trace();
  const extent: [number, number] = [times[0], times[times.length - 1] + 1];
  const fold = buildFold({ times, passes, width: 1200 - 8 - 96 })!;
  const axes: [string, TimeAxis][] = [
    ["folded", makeTimeAxis(extent, 0, 1200, fold)],
    ["linear", makeTimeAxis(extent, 0, 1200)],
  ];

  it.each(axes)("put each event where the %s axis puts it", (_, axis) => {
    const edges = binEdges(axis, BINS);
    expect(edges.length).toBe(BINS - 1);
    // The events themselves, and times between them: in gaps, on pass ends, before and after.
    const probes = [...times, ...times.map((t) => t + 1), extent[0] - 1e6, extent[1] + 1e6];
    const [r0, r1] = axis.range;
    for (const us of probes) {
      const bin = binOf(edges, us);
      const through = binThroughAxis(axis, us);
      if (bin === through) continue;
      // An event on an edge (a fold's knot can be one) may go either side of it: wall µs near
      // 1.8e15 are a quarter µs apart as doubles, so x(invert(px)) is px only to within 1e-6 px.
      const edgePx = r0 + (Math.max(bin, through) * (r1 - r0)) / BINS;
      expect(Math.abs(bin - through), `at ${us}`).toBe(1);
      expect(Math.abs(axis.x(us) - edgePx), `at ${us}`).toBeLessThan(1e-3);
    }
  });

  it("fill every bin of a folded axis: passes take room, gaps do not", () => {
    const [, axis] = axes[0];
    const edges = binEdges(axis, BINS);
    const counts = new Uint32Array(BINS);
    for (const us of times) counts[binOf(edges, us)]++;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(times.length);
    expect(counts.filter((c) => c > 0).length).toBeGreaterThan(BINS / 2);
  });
});
