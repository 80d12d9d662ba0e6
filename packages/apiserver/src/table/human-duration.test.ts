/** AGE cells: the thresholds of apimachinery's HumanDuration. */
import { describe, expect, it } from "vitest";
import { humanDuration } from "./human-duration.ts";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe("humanDuration", () => {
  it.each([
    [-5 * s, "<invalid>"],
    [-1 * s, "0s"],
    [0, "0s"],
    [119 * s, "119s"],
    [2 * m, "2m"],
    [3 * m + 10 * s, "3m10s"],
    [10 * m, "10m"],
    [179 * m, "179m"],
    [3 * h, "3h"],
    [7 * h + 59 * m, "7h59m"],
    [8 * h, "8h"],
    [47 * h, "47h"],
    [2 * d, "2d"],
    [2 * d + 5 * h, "2d5h"],
    [8 * d, "8d"],
    [729 * d, "729d"],
    [730 * d, "2y"],
    [3 * 365 * d + 10 * d, "3y10d"],
    [9 * 365 * d, "9y"],
  ])("%d ms → %s", (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
