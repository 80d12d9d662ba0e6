/**
 * STAGE lines and JSONL records with an empty key or an unreadable number: an empty key is "no
 * Foo" on a watch event only; on any other stage the line is an error with its line number and
 * makes no event (no Foo named ""), read as text or as bytes. An unreadable number is left out of
 * the event with a warning.
 */
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { encodeHeader } from "../jsonl/format.ts";
import { readTraceText } from "./read-trace.ts";
import { TraceReader } from "./trace-reader.ts";

const HEADER = "I1202 09:46:50.999999   12345 controller.go:200] ";

/** A log whose line 2 is `stage`: read as text, and as bytes (the reader's byte path). */
function readBothWays(stage: string) {
  const text = `${HEADER}Starting workers\n${HEADER}${stage}\n`;
  const asText = readTraceText(text, { year: 2026 });
  const reader = new TraceReader({ year: 2026 });
  const events = reader.push(new TextEncoder().encode(text));
  events.push(...reader.end());
  return [asText, { events, reader }].map((r) => ({
    stages: r.events.filter((e) => e.stage !== "note"),
    problems: r.reader.diagnostics.filter((d) => d.level !== "info"),
  }));
}

describe("a STAGE line with an empty key", () => {
  it.each([
    ["STAGE/enqueue key= len=abc", "STAGE/enqueue without a key (key=ns/name)"],
    ["STAGE/enqueue key= len=1", "STAGE/enqueue without a key (key=ns/name)"],
    ['STAGE/enqueue key="" len=1', "STAGE/enqueue without a key (key=ns/name)"],
    ["STAGE/dequeue key= len=0 worker=1", "STAGE/dequeue without a key (key=ns/name)"],
    ["STAGE/read key= rv=1001", "STAGE/read without a key (key=ns/name)"],
    ["STAGE/write key= verb=create", "STAGE/write without a key or target"],
    ['STAGE/read object={"name":""} rv=1', "STAGE/read without a key (key=ns/name)"],
  ])("%s is an error on its line and makes no event", (line, message) => {
    for (const read of readBothWays(line)) {
      expect(read.stages).toEqual([]);
      expect(read.problems).toEqual([{ line: 2, level: "error", message }]);
    }
  });

  it("on a write, is absent: the key comes from the target", () => {
    for (const read of readBothWays(
      "STAGE/write key= verb=create target=deployments/default/example-foo code=201",
    )) {
      expect(read.stages).toMatchObject([{ stage: "write", key: "default/example-foo" }]);
      expect(read.problems).toEqual([]);
    }
  });

  it('on a watch, still means "no Foo" (an orphaned Deployment)', () => {
    for (const read of readBothWays(
      "STAGE/watch kind=Deployment event=delete ns=default name=stray key= rv=7",
    )) {
      expect(read.stages).toMatchObject([{ stage: "watch", key: "", name: "stray" }]);
      expect(read.problems).toEqual([]);
    }
  });
});

describe("a STAGE line with a number that is none", () => {
  it("leaves the field out, with a warning on its line", () => {
    for (const read of readBothWays("STAGE/enqueue key=default/example-foo len=abc")) {
      expect(read.stages).toHaveLength(1);
      expect(read.stages[0]).toMatchObject({ stage: "enqueue", key: "default/example-foo" });
      expect(read.stages[0]).not.toHaveProperty("len");
      expect(read.problems).toEqual([
        { line: 2, level: "warn", message: "STAGE/enqueue: len=abc is not a number; left out" },
      ]);
    }
  });

  it("is said of its own line only, when that line is refused", () => {
    const lines = `STAGE/enqueue key= len=abc\n${HEADER}STAGE/enqueue key=ns/a len=1`;
    for (const read of readBothWays(lines)) {
      expect(read.stages).toMatchObject([{ stage: "enqueue", key: "ns/a", len: 1 }]);
      expect(read.problems).toEqual([
        { line: 2, level: "error", message: "STAGE/enqueue without a key (key=ns/name)" },
      ]);
    }
  });

  it("names the field as the line spelled it", () => {
    const [read] = readBothWays("STAGE/dequeue key=ns/a queue_len=1 workerID=two");
    expect(read.stages[0]).toMatchObject({ len: 1 });
    expect(read.stages[0]).not.toHaveProperty("worker");
    expect(read.problems.map((d) => d.message)).toEqual([
      "STAGE/dequeue: workerID=two is not a number; left out",
    ]);
  });
});

describe('a JSONL record with "key": ""', () => {
  const record = (e: Partial<TraceEvent>) => JSON.stringify({ ts: 5, ...e }) + "\n";

  it("is an error for the stages that are about a Foo, and kept for watch and note", () => {
    const text =
      encodeHeader() +
      record({ seq: 1, key: "", stage: "enqueue", len: 1 }) +
      record({ seq: 2, key: "", stage: "dequeue" }) +
      record({ seq: 3, key: "", stage: "read" }) +
      record({ seq: 4, key: "", stage: "write", verb: "create", target: "deployments/ns/a" }) +
      record({ seq: 5, key: "", stage: "watch", kind: "Deployment", event: "add", name: "x" }) +
      record({ seq: 6, key: "", stage: "note", text: "Starting workers" });
    const { events, reader } = readTraceText(text);
    expect(events.map((e) => e.stage)).toEqual(["watch", "note"]);
    expect(reader.diagnostics).toEqual(
      ["enqueue", "dequeue", "read", "write"].map((stage, i) => ({
        line: i + 2,
        level: "error",
        message: `${stage} record with an empty "key" (ns/name)`,
      })),
    );
  });
});
