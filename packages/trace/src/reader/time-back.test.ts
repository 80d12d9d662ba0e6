/**
 * Time running backwards: goroutine jitter (klog lines out of time order by up to hundreds of
 * milliseconds) is normal and says nothing; a line more than a second before the line above — a
 * clock set back, two runs' logs joined — gets one diagnostic per jump.
 */
import { describe, expect, it } from "vitest";
import { analyze, fixture } from "../testing/fixtures.ts";
import { readTraceText } from "./read-trace.ts";
import { timeWentBack } from "./time-back.ts";
import { encodeEvent, encodeHeader } from "../jsonl/format.ts";

const at = (time: string, key = "default/x") =>
  `I1202 ${time}    7 controller.go:207] STAGE/dequeue key=${key} worker=1`;
const timeDiagnostics = (text: string) =>
  analyze(text).reader.diagnostics.filter((d) => d.message.startsWith("time goes back"));

describe("time going back in a klog log", () => {
  it("says nothing of goroutine jitter", () => {
    const lines = ["09:00:00.300000", "09:00:00.295000", "09:00:00.001000", "09:00:00.900000"];
    expect(timeDiagnostics(lines.map((t) => at(t)).join("\n") + "\n")).toEqual([]);
    // The real log with out-of-order lines (sample-controller#48).
    const f1 = analyze(fixture("klog/f1.log"), { keepNoise: true }).reader.diagnostics;
    expect(f1.filter((d) => d.message.startsWith("time goes back"))).toEqual([]);
  });

  it("says it once per jump of more than a second, on the line that jumped", () => {
    const lines = [
      "10:00:00.000000",
      "10:00:05.000000",
      "08:30:00.000000", // a clock set back 1 h 30 min
      "08:30:01.000000",
      "08:30:00.500000", // jitter after it: nothing
      "08:29:58.500000", // 2 s before the line above: a jump
    ];
    const d = timeDiagnostics(lines.map((t) => at(t)).join("\n") + "\n");
    expect(d.map((x) => [x.line, x.level])).toEqual([
      [3, "warn"],
      [6, "warn"],
    ]);
    expect(d[0].message).toBe(
      "time goes back 1 h 30 min here, to 2026-12-02 08:30:00.000000 after 2026-12-02 10:00:05.000000 on the line above (a clock set back, or logs of two runs joined?); read in file order",
    );
    expect(d[1].message).toContain("time goes back 2.0 s here");
  });

  it("says how far in units that never show 60 (a log of a restart: 3 min 59.96 s is 4 min)", () => {
    const back = (us: number) =>
      /time goes back (.*?) here/.exec(timeWentBack(2, 0, us, 1)!.message)![1];
    expect(back(1_500_000)).toBe("1.5 s");
    expect(back(59_960_000)).toBe("1 min");
    expect(back(239_960_000)).toBe("4 min");
    expect(back(239_400_000)).toBe("3 min 59 s");
    expect(back(3_599_700_000)).toBe("1 h");
    expect(back(5_400_000_000)).toBe("1 h 30 min");
    expect(back(7_199_990_000)).toBe("2 h");
    expect(back(172_799_000_000)).toBe("2 days");
  });

  it("stops listing after 21 jumps, saying so", () => {
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) lines.push(at(i % 2 ? "09:00:00.000000" : "10:00:00.000000"));
    const d = timeDiagnostics(lines.join("\n") + "\n");
    expect(d).toHaveLength(21);
    expect(d[20].message).toContain("the jumps after the first 21 are not listed");
  });

  it("reads every line all the same, in file order", () => {
    const { events, analyzer } = analyze(
      [at("10:00:00.000000", "a/b"), at("09:00:00.000000", "c/d")].join("\n") + "\n",
    );
    expect(events.map((e) => [e.seq, e.key])).toEqual([
      [1, "a/b"],
      [2, "c/d"],
    ]);
    expect(analyzer.keys()).toEqual(["a/b", "c/d"]);
  });
});

describe("time going back in a JSONL trace", () => {
  it("is said once per jump too", () => {
    const rec = (seq: number, ts: number) => encodeEvent({ seq, ts, key: "a/b", stage: "dequeue" });
    const text =
      encodeHeader() +
      rec(1, 10_000_000) +
      rec(2, 9_500_000) + // half a second: nothing
      rec(3, 5_000_000) + // 4.5 s back
      rec(4, 5_000_001);
    const { reader, events } = readTraceText(text);
    expect(events).toHaveLength(4);
    expect(reader.diagnostics).toEqual([
      { line: 4, level: "warn", message: expect.stringContaining("time goes back 4.5 s here") },
    ]);
  });
});
