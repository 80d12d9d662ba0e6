/**
 * A learner's STAGE lines without a klog header (fmt.Println, log.Printf) take the best time the
 * line carries: its log.Printf time, else its wrapper's (kubectl logs --timestamps, a CRI or
 * Docker record's) — not 1970, nor the klog line's before them.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import type { TraceEvent } from "../event.ts";

const KLOG = 'I0501 09:46:50.210176       1 controller.go:206] "Started workers"';
const AFTER =
  'I0501 09:46:52.000001       1 controller.go:232] "Successfully synced" objectName="default/example-foo"';
const BARE = ["STAGE/watch default/example-foo", "STAGE/enqueue default/example-foo"];

/** The event's time to the µs: 2024-05-01T09:46:50.210176Z. */
const iso = (e: TraceEvent) =>
  new Date(Math.floor(e.ts / 1000)).toISOString().slice(0, -1) +
  String(e.ts % 1000).padStart(3, "0") +
  "Z";
const read = (log: string, year?: number) => {
  const { events, reader } = readTraceText(log, year === undefined ? {} : { year });
  return {
    times: events.map((e) => `${e.stage} ${iso(e)}`),
    diagnostics: reader.diagnostics.filter((d) => d.level !== "info"),
  };
};

describe("a STAGE line without a klog header", () => {
  it("takes kubectl logs --timestamps' time", () => {
    const log = `2024-05-01T09:46:50.020000Z ${BARE[0]}\n2024-05-01T09:46:50.04Z ${BARE[1]}\n`;
    expect(read(log)).toEqual({
      times: ["watch 2024-05-01T09:46:50.020000Z", "enqueue 2024-05-01T09:46:50.040000Z"],
      diagnostics: [],
    });
  });

  it("takes its CRI record's time, among the klog lines of stderr", () => {
    const log = [
      `2024-05-01T09:46:50.210176400Z stderr F ${KLOG}`,
      `2024-05-01T09:46:51.500000900Z stdout F ${BARE[0]}`,
      `2024-05-01T11:46:51.600000+02:00 stdout F ${BARE[1]}`,
      "",
    ].join("\n");
    expect(read(log).times).toEqual([
      "note 2024-05-01T09:46:50.210176Z",
      "watch 2024-05-01T09:46:51.500000Z",
      "enqueue 2024-05-01T09:46:51.600000Z",
    ]);
    expect(read(log).diagnostics).toEqual([]);
  });

  it("takes its CRI record's time in the zone the pod's klog headers are written in", () => {
    // klog prints the pod's local time (here UTC+2), the container runtime UTC.
    const log = [
      `2024-05-01T09:46:50.210176400Z stderr F ${KLOG.replace("09:46:50", "11:46:50")}`,
      `2024-05-01T09:46:51.500000900Z stdout F ${BARE[0]}`,
      `2024-05-01T09:46:52.000002Z stderr F ${AFTER.replace("09:46:52", "11:46:52")}`,
      "",
    ].join("\n");
    expect(read(log)).toEqual({
      times: [
        "note 2024-05-01T11:46:50.210176Z",
        "watch 2024-05-01T11:46:51.500000Z",
        "done 2024-05-01T11:46:52.000001Z",
      ],
      diagnostics: [],
    });
  });

  it("takes its Docker record's time", () => {
    const log =
      [
        { log: `${KLOG}\n`, stream: "stderr", time: "2024-05-01T09:46:50.210176400Z" },
        { log: `${BARE[0]}\n`, stream: "stdout", time: "2024-05-01T09:46:51.250000100Z" },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n";
    expect(read(log).times).toEqual([
      "note 2024-05-01T09:46:50.210176Z",
      "watch 2024-05-01T09:46:51.250000Z",
    ]);
  });

  it("takes log.Printf's time, with log.Lmicroseconds to the µs, before its wrapper's", () => {
    const log = `${KLOG}\n2026-05-01T09:46:51.9Z 2024/05/01 09:46:51.123456 ${BARE[0]}\n${AFTER}\n`;
    // klog's lines carry no year: the log.Printf line is read in theirs, as its date is klog's.
    expect(read(log, 2026).times).toEqual([
      "note 2026-05-01T09:46:50.210176Z",
      "watch 2026-05-01T09:46:51.123456Z",
      "done 2026-05-01T09:46:52.000001Z",
    ]);
  });

  it("takes a finer time within log.Printf's second: its wrapper's, else the line before's", () => {
    const printf = `2024/05/01 09:46:50 ${BARE[0]}`;
    expect(read(`${KLOG}\n${printf}\n`, 2024).times).toEqual([
      "note 2024-05-01T09:46:50.210176Z",
      "watch 2024-05-01T09:46:50.210176Z",
    ]);
    expect(read(`${KLOG}\n2024-05-01T09:46:50.7Z ${printf}\n`, 2024).times[1]).toBe(
      "watch 2024-05-01T09:46:50.700000Z",
    );
    // A wrapper's time outside the second says something else than log.Printf: not taken.
    expect(read(`${KLOG}\n2024-05-01T09:46:53.7Z ${printf}\n`, 2024).times[1]).toBe(
      "watch 2024-05-01T09:46:50.210176Z",
    );
    expect(read(`2024/05/01 09:46:50 ${BARE[0]}\n`).times).toEqual([
      "watch 2024-05-01T09:46:50.000000Z",
    ]);
  });

  it("takes the line before's time when it carries none, with one warning", () => {
    const { times, diagnostics } = read(`${KLOG}\n${BARE[0]}\n${BARE[1]}\n`, 2024);
    expect(times.slice(1)).toEqual([
      "watch 2024-05-01T09:46:50.210176Z",
      "enqueue 2024-05-01T09:46:50.210176Z",
    ]);
    expect(diagnostics).toEqual([
      {
        line: 2,
        level: "warn",
        message:
          "STAGE line without a klog header; its time is taken from the line before (noted once)",
      },
    ]);
  });
});
