import { describe, expect, it } from "vitest";
import { formatRelative, formatWall } from "./timeScale.ts";

describe("axis labels", () => {
  const us = Date.UTC(2026, 11, 4, 9, 14, 6) * 1000 + 31_380.5;

  it("give the wall clock to the millisecond, or to the microsecond for ticks closer than 1 ms", () => {
    expect(formatWall(us)).toBe("09:14:06.031");
    expect(formatWall(us, true)).toBe("09:14:06.031380");
    expect(formatWall(us + 250, true)).toBe("09:14:06.031630");
  });

  it("give the time since creation at the tick step's precision", () => {
    expect(formatRelative(1250, 500)).toBe("+1.250 s");
    expect(formatRelative(12, 2)).toBe("+12 ms");
    expect(formatRelative(-0.25, 0.05)).toBe("−0.250 ms");
  });
});
