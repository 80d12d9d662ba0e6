import { describe, expect, it } from "vitest";
import { cellCount } from "./cellCount.ts";

describe("cellCount", () => {
  it("is exact up to the column's digits, then at most four characters with a unit", () => {
    expect(cellCount(0, 4)).toBe("0");
    expect(cellCount(9999, 4)).toBe("9999");
    expect(cellCount(10_000, 4)).toBe("10k");
    expect(cellCount(23_814, 4)).toBe("23k");
    expect(cellCount(99_999, 5)).toBe("99999");
    expect(cellCount(100_000, 5)).toBe("100k");
    expect(cellCount(999_999, 4)).toBe("999k");
    expect(cellCount(1_260_000, 4)).toBe("1.2M");
    expect(cellCount(2381, 3)).toBe("2.3k");
    for (const n of [12_345, 987_654, 3_456_789, 45_678_901, 999_999_999])
      expect(cellCount(n, 4).length).toBeLessThanOrEqual(4);
  });
});
