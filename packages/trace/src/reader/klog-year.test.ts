/**
 * klog prints no year. Without --year or a timestamp prefix that says one, a log is read in the
 * current year — unless its first date is after today: a log is read after it was written, so a
 * log of Dec 31 read on Jan 2 is last year's.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";

const line = (date: string) =>
  `I${date} 23:59:00.000000   1 controller.go:1] STAGE/read key=a/b rv=1\n`;

function readOn(date: string, today: Date) {
  const { events, reader } = readTraceText(line(date), { now: () => today });
  return {
    year: new Date(events[0]!.ts / 1000).getUTCFullYear(),
    said: reader.diagnostics.find((d) => d.level === "info")?.message,
  };
}

describe("the year of a klog log", () => {
  it("is the current year for a date up to today (and a day past it, for time zones)", () => {
    const jan2 = new Date(Date.UTC(2027, 0, 2, 10));
    expect(readOn("0102", jan2).year).toBe(2027);
    expect(readOn("0103", jan2).year).toBe(2027);
    expect(readOn("0101", jan2).said).toBe(
      "klog lines carry no year: read as 2027 (the current year; the CLI's --year N reads them as another), times as UTC",
    );
  });

  it("is last year's for a first date after today", () => {
    const r = readOn("1231", new Date(Date.UTC(2027, 0, 2, 10)));
    expect(r.year).toBe(2026);
    expect(r.said).toBe(
      "klog lines carry no year: read as 2026 (last year: its first date, 12-31, is after today; the CLI's --year N reads them as another), times as UTC",
    );
  });
});
