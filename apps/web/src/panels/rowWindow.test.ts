import { describe, expect, it } from "vitest";
import { rowWindow, scrollToShow } from "./rowWindow.ts";

describe("rowWindow", () => {
  it("draws the rows in view and the overscan either side", () => {
    // Rows 100‥119 are in a 400 px viewport of 20 px rows scrolled to 2000 px.
    expect(rowWindow(10_000, 20, 2000, 400, 5)).toEqual({ first: 95, end: 125 });
  });

  it("draws a row cut by either edge of the viewport", () => {
    // 2010 px: row 100 is half hidden above, row 120 half visible below.
    expect(rowWindow(10_000, 20, 2010, 400, 0)).toEqual({ first: 100, end: 121 });
  });

  it("clamps at both ends of the list", () => {
    expect(rowWindow(10_000, 20, 0, 400, 5)).toEqual({ first: 0, end: 25 });
    expect(rowWindow(30, 20, 500, 400, 5)).toEqual({ first: 20, end: 30 });
    expect(rowWindow(0, 20, 0, 400)).toEqual({ first: 0, end: 0 });
  });

  it("counts a list that starts below the viewport's top (a header above it)", () => {
    // The list's top is 60 px down the viewport: 17 rows fit in the 340 px left.
    expect(rowWindow(1000, 20, -60, 400, 0)).toEqual({ first: 0, end: 17 });
  });

  it("never draws past the list when scrolled beyond its end", () => {
    expect(rowWindow(10, 20, 5000, 400, 3)).toEqual({ first: 10, end: 10 });
  });
});

describe("scrollToShow", () => {
  it("is 0 for a row in view", () => {
    expect(scrollToShow(5, 20, 0, 400)).toBe(0);
  });

  it("scrolls up to a row above the viewport", () => {
    expect(scrollToShow(5, 20, 300, 400)).toBe(-200);
  });

  it("scrolls down just far enough to show a row below it whole", () => {
    // Row 50 spans 1000‥1020 px; the viewport shows 300‥700.
    expect(scrollToShow(50, 20, 300, 400)).toBe(320);
  });
});
