import { describe, expect, it } from "vitest";
import { gluedRecords } from "./glued-records.ts";
import { encodeEvent, encodeHeader } from "./format.ts";
import { readTraceText } from "../reader/read-trace.ts";
import type { TraceEvent } from "../event.ts";

const event = (seq: number): TraceEvent => ({
  seq,
  ts: 1_764_666_846_031_344 + seq,
  key: "default/example-foo",
  stage: "enqueue",
  len: 1,
  extra: { note: `a "}{"x" in a string, and {"nested": [{"deep": ${seq}}]}` },
});

describe("gluedRecords", () => {
  it("takes apart any number of records, with strings and nesting that look like starts", () => {
    const records = Array.from({ length: 500 }, (_, i) => ({ seq: i, o: { "}{": [{ a: "\\" }] } }));
    const line = records.map((r, i) => JSON.stringify(r) + (i % 3 === 0 ? "\r" : "")).join("");
    expect(gluedRecords(line)).toEqual({ records, cut: 0 });
  });

  it("reads the records around a cut-short part", () => {
    const line = '{"a":1}{"b":{"c":"x{"d":2} \uFEFF{"e":3}';
    expect(gluedRecords(line)).toEqual({ records: [{ a: 1 }, { d: 2 }, { e: 3 }], cut: 2 });
  });

  it("stops on a line of very many cut-short parts, and says where", () => {
    const line = '{"a":1}' + '{"b":['.repeat(50_000);
    const t = performance.now();
    const g = gluedRecords(line);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(g?.records).toEqual([{ a: 1 }]);
    expect(g?.unread).toBeGreaterThan(7);
    expect(g?.unread).toBeLessThan(line.length);
  });
});

describe("a JSONL line of many records glued together", () => {
  it("has every record read, with one warning", () => {
    const evs = Array.from({ length: 40 }, (_, i) => event(i + 1));
    const glued = evs.map((e, i) => encodeEvent(e).trimEnd() + (i % 2 === 0 ? "" : "\r")).join("");
    const { events, reader } = readTraceText(encodeHeader() + glued + "\n");
    expect(events).toEqual(evs);
    expect(reader.diagnostics).toEqual([
      {
        line: 2,
        level: "warn",
        message: "40 JSON records on one line (a newline lost?): all read",
      },
    ]);
  });

  it("says where it stopped on a line too costly to take apart", () => {
    const line = encodeEvent(event(1)).trimEnd() + '{"b":['.repeat(50_000) + encodeEvent(event(2));
    const { events, reader } = readTraceText(encodeHeader() + line);
    expect(events).toEqual([event(1)]);
    expect(reader.diagnostics[0].message).toMatch(
      /^JSON records on one line after text that is none .*: 1 read, \d+ cut-short parts not read; the rest of the line, from character \d+, was not read \(too many cut-short parts to take apart\)$/,
    );
  });
});
