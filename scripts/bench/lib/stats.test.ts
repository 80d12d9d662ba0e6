import { describe, expect, it } from "vitest";
import { median, num, summarize } from "./stats.ts";
import { renderTable } from "./table.ts";

describe("bench statistics and table", () => {
  it("takes medians of odd and even run counts", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(summarize([3, 9, 6])).toEqual({ median: 6, min: 3, max: 9, runs: [3, 9, 6] });
  });

  it("prints each case beside its baseline with the ratio of medians", () => {
    const table = renderTable([
      {
        bench: "parse",
        case: "grep -c STAGE/",
        unit: "MB/s",
        summary: summarize([400, 500, 600]),
        baseline: true,
      },
      {
        bench: "parse",
        case: "read + analyze",
        unit: "MB/s",
        summary: summarize([40, 50, 60]),
        ratio: 0.1,
        baseline: false,
      },
    ]);
    const [head, , base, row] = table.trimEnd().split("\n");
    expect(head).toMatch(/^bench\s+case\s+median\s+min–max\s+runs\s+vs baseline$/);
    expect(base).toMatch(/grep -c STAGE\/ \(baseline\)\s+500 MB\/s\s+400–600\s+3\s+1$/);
    expect(row).toMatch(/read \+ analyze\s+50\.0 MB\/s\s+40\.0–60\.0\s+3\s+×0\.100$/);
    expect(num(0.01234)).toBe("0.0123");
  });
});
