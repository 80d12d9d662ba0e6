/**
 * A JSONL trace whose `ts` counts seconds, milliseconds or nanoseconds (another tool's, or one
 * written by hand) is read in microseconds, with one warning naming the unit; microseconds and
 * small times from a start are read as they are.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { expectSame } from "../testing/reader-paths.ts";

const HEADER = '{"loopscope":"trace","version":1}';
/** 2026-12-02 10:00:00.250000 UTC and a second later, in microseconds. */
const T0 = Date.UTC(2026, 11, 2, 10, 0, 0, 250) * 1000;

const trace = (ts: [number, number]) =>
  [
    HEADER,
    `{"seq":1,"ts":${ts[0]},"key":"default/a","stage":"dequeue","worker":1}`,
    `{"seq":2,"ts":${ts[1]},"key":"default/a","stage":"read","found":true}`,
  ].join("\n") + "\n";

describe("a JSONL trace's ts unit", () => {
  it.each([
    ["seconds", [T0 / 1e6, T0 / 1e6 + 1]],
    ["milliseconds", [T0 / 1e3, T0 / 1e3 + 1000]],
    ["nanoseconds", [T0 * 1e3, T0 * 1e3 + 1e9]],
  ] as const)("reads %s as microseconds, with a warning", (unit, ts) => {
    const { events, reader } = readTraceText(trace([ts[0], ts[1]]));
    expect(events.map((e) => e.ts)).toEqual([T0, T0 + 1_000_000]);
    expect(reader.diagnostics).toEqual([
      {
        line: 2,
        level: "warn",
        message: `"ts" ${ts[0]} reads as ${unit} since the Unix epoch (2026-12-02 10:00:00.250 UTC), not microseconds as the format says: every record's ts is read as ${unit}`,
      },
    ]);
    // The page's reader takes records from their bytes: it reads them the same.
    const read = expectSame(new TextEncoder().encode(trace([ts[0], ts[1]])));
    expect([...read.batch.ts]).toEqual([T0, T0 + 1_000_000]);
  });

  it("takes the unit that agrees with the header's created time, when it has one", () => {
    const created = `{"loopscope":"trace","version":1,"created":"2026-12-02T10:00:00.000Z"}`;
    const withCreated = (ts: [number, number]) => trace(ts).replace(HEADER, created);
    const ms = readTraceText(withCreated([T0 / 1e3, T0 / 1e3 + 1000]));
    expect(ms.events.map((e) => e.ts)).toEqual([T0, T0 + 1_000_000]);
    expect(ms.reader.diagnostics.map((d) => d.level)).toEqual(["warn"]);
    // Microseconds of a monotonic clock (an hour after boot) are a date in seconds (1970 + 41
    // days), but not near the trace's creation: read as they are.
    const monotonic = readTraceText(withCreated([3_600_000_000, 3_601_000_000]));
    expect(monotonic.events.map((e) => e.ts)).toEqual([3_600_000_000, 3_601_000_000]);
    expect(monotonic.reader.diagnostics).toEqual([]);
  });

  it("reads microseconds, and times from a start, as they are", () => {
    for (const ts of [
      [T0, T0 + 1_000_000],
      [1, 2],
      [0, 5_000_000],
    ] as const) {
      const { events, reader } = readTraceText(trace([ts[0], ts[1]]));
      expect(events.map((e) => e.ts)).toEqual(ts);
      expect(reader.diagnostics).toEqual([]);
    }
  });
});
