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

  it("is the one klog's log file header says, when the file has it (--log_file, --log_dir)", () => {
    const file = (created: string, first: string) =>
      `Log file created at: ${created} 09:14:00\nRunning on machine: forge\n` +
      "Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n" +
      line(first);
    const today = () => new Date(Date.UTC(2026, 11, 7));
    const read = (text: string) => {
      const { events, reader } = readTraceText(text, { now: today });
      return {
        year: new Date(events[0]!.ts / 1000).getUTCFullYear(),
        said: reader.diagnostics.find((d) => d.level === "info")?.message,
      };
    };
    expect(read(file("2024/12/02", "1202"))).toEqual({
      year: 2024,
      said: 'klog lines carry no year: read as 2024 (from the log file\'s header, "Log file created at"), times as UTC',
    });
    // A file created on Dec 31 whose first line is of Jan 1: the next year.
    expect(read(file("2024/12/31", "0101")).year).toBe(2025);
  });
});
