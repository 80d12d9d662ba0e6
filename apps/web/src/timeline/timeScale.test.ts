import { describe, expect, it } from "vitest";
import { formatRelative, formatWall } from "./timeScale.ts";

describe("axis labels", () => {
  const us = Date.UTC(2026, 11, 4, 9, 14, 6) * 1000 + 31_380.5;

  it("give the wall clock to the millisecond, or to the microsecond for ticks closer than 1 ms", () => {
    expect(formatWall(us)).toBe("09:14:06.031");
    expect(formatWall(us, true)).toBe("09:14:06.031380");
    expect(formatWall(us + 250, true)).toBe("09:14:06.031630");
  });

  it("give the time since creation at the tick step's precision, in one unit per axis", () => {
    // The axis reaches 2 s: its ticks 500 ms apart all read in seconds.
    expect([0, 500, 1000, 1500].map((ms) => formatRelative(ms, 500, 2000))).toEqual([
      "+0.0 s",
      "+0.5 s",
      "+1.0 s",
      "+1.5 s",
    ]);
    expect(formatRelative(12, 2, 20)).toBe("+12 ms");
    expect(formatRelative(500, 100, 900)).toBe("+500 ms");
    expect(formatRelative(-0.25, 0.05, 0.5)).toBe("−0.250 ms");
    // Ten seconds on, as many digits as the step needs: ticks 1 ms apart are told apart.
    expect(formatRelative(12_400, 200, 13_000)).toBe("+12.4 s");
    expect(formatRelative(25_850, 50, 26_000)).toBe("+25.85 s");
    expect(formatRelative(25_797, 1, 25_800)).toBe("+25.797 s");
    expect(formatRelative(25_798, 1, 25_800)).toBe("+25.798 s");
    expect(formatRelative(64_700.5, 0.5, 64_702)).toBe("+64.7005 s");
    expect(formatRelative(-81_000, 1000, 81_000)).toBe("−81 s");
  });
});
