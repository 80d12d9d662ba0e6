import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { fitWindow } from "./fit.ts";
import { buildFold, FOLD_PX, foldT, foldU, MIN_PASS_PX } from "./fold.ts";
import { layoutLanes, passBands } from "./layout.ts";
import { sessionFold } from "./sessionFold.ts";
import { GUTTER, makeTimeAxis } from "./timeScale.ts";

const CREATE = readFileSync(
  new URL("../../../../public/traces/create-foo.jsonl", import.meta.url),
  "utf8",
);
/** An unpatched Go controller's log: each pass known only by its "Successfully synced" line. */
const UNPATCHED = readFileSync(
  new URL("../../../../e2e/fixtures/unpatched-exercise.log", import.meta.url),
  "utf8",
);

describe("folded time", () => {
  // Three passes: two short ones close together, a long idle gap, a long pass.
  const passes: [number, number][] = [
    [1_000, 1_040],
    [1_100, 1_140],
    [2_000_000, 2_130_000],
  ];
  const times = [900, 1_000, 1_020, 1_040, 1_060, 1_100, 1_140, 1_990_000, 2_000_000, 2_130_000];
  const fold = buildFold({ times, passes, width: 600 })!;
  const width = (a: number, b: number) => foldU(fold, b) - foldU(fold, a);

  it("gives every pass at least MIN_PASS_PX, however short", () => {
    for (const [a, b] of passes) expect(width(a, b)).toBeGreaterThanOrEqual(MIN_PASS_PX - 1e-6);
  });

  it("folds an idle gap to FOLD_PX and says which piece it is", () => {
    expect(width(1_140, 1_990_000)).toBeCloseTo(FOLD_PX, 6);
    expect(fold.folded.length).toBe(1);
    const i = fold.folded[0];
    expect([fold.t[i], fold.t[i + 1]]).toEqual([1_140, 1_990_000]);
  });

  it("is monotonic and inverts exactly, inside and outside the events", () => {
    let prev = -Infinity;
    for (let t = 0; t < 2_500_000; t += 997) {
      const u = foldU(fold, t);
      expect(u).toBeGreaterThan(prev);
      prev = u;
      expect(foldT(fold, u)).toBeCloseTo(t, 3);
    }
  });

  it("fits the whole extent into the width given (less a fold's width of margin each side)", () => {
    expect(width(900, 2_130_000)).toBeLessThanOrEqual(600 - 2 * FOLD_PX + 1);
    expect(width(900, 2_130_000)).toBeGreaterThan(600 - 2 * FOLD_PX - 2);
  });

  it("lays out create-foo with every pass ≥ 24 px on a 1280 px screen's lanes, in its fit window", () => {
    const session = sessionFromText(CREATE, "create-foo.jsonl");
    const key = "default/example-foo";
    const lanes = 560; // what 1280 px leaves the lanes (objects column and gutter taken)
    const f = sessionFold(session, [key], lanes)!;
    const ps = session.passesOf(key);
    expect(ps.length).toBe(8);
    const first = session.summaryOf(key)!.firstTs;
    const last = Math.max(...ps.map((p) => p.end!));
    const span = last - first;
    const axis = makeTimeAxis([first - span * 0.04, last + span * 0.04], first, lanes + 104, f);
    for (const p of ps) expect(axis.x(p.end!) - axis.x(p.start)).toBeGreaterThanOrEqual(24);
    // The same axis in linear time squeezes the early passes (the problem folding solves).
    const linear = makeTimeAxis([first - span * 0.04, last + span * 0.04], first, lanes + 104);
    expect(Math.min(...ps.map((p) => linear.x(p.end!) - linear.x(p.start)))).toBeLessThan(24);
    // Pixels map back to the same wall time (zoom, pan and hit testing invert through it).
    for (const p of ps) expect(axis.invert(axis.x(p.start))).toBeCloseTo(p.start, 0);
  });

  it("gives a pass known only at an instant (start = end) MIN_PASS_PX too", () => {
    const instants: [number, number][] = [
      [1_000, 1_000],
      [1_200, 1_200],
      [9_000_000, 9_000_000],
    ];
    const f = buildFold({ times: [900, 1_000, 1_200, 9_000_000], passes: instants, width: 600 })!;
    // Such a pass is taken to last a µs (passSpan): that µs is stretched as a short pass is.
    for (const [a] of instants)
      expect(foldU(f, a + 1) - foldU(f, a)).toBeGreaterThanOrEqual(MIN_PASS_PX - 1e-6);
  });

  it("draws every pass of an unpatched Go controller's log ≥ MIN_PASS_PX at the fit", () => {
    const session = sessionFromText(UNPATCHED, "unpatched-exercise.log");
    const key = "default/example-foo";
    const ps = session.passesOf(key);
    expect(ps.length).toBe(6);
    expect(ps.every((p) => p.end === p.start)).toBe(true);
    for (const width of [700, 940, 1200]) {
      const f = sessionFold(session, [key], width - 8 - GUTTER)!;
      const axis = makeTimeAxis(fitWindow(session, [key]), ps[0].start, width, f);
      const bands = passBands(ps, layoutLanes([key])[0], axis.x, width, Infinity);
      expect(bands.length).toBe(6);
      for (const b of bands)
        expect(b.x1 - b.x0, `${width} px: #${b.pass.number}`).toBeGreaterThanOrEqual(
          MIN_PASS_PX - 1,
        );
    }
  });
});
