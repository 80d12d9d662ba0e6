import { describe, expect, it } from "vitest";
import { encodeEvent, encodeHeader } from "./format.ts";
import { decodeEventLines, decodeEventRecords } from "./decode-event.ts";
import { readTraceText } from "../reader/read-trace.ts";
import type { TraceEvent } from "../event.ts";

const events: TraceEvent[] = [
  {
    seq: 1,
    ts: 1_764_666_846_031_344,
    key: "default/example-foo",
    stage: "watch",
    kind: "Foo",
    event: "add",
    name: "example-foo",
    ns: "default",
    rv: "1001",
  },
  {
    seq: 2,
    ts: 1_764_666_846_031_374,
    key: "default/example-foo",
    stage: "enqueue",
    len: 1,
    merged: false,
    cause: "watch",
    causeSeq: 1,
  },
  {
    seq: 3,
    ts: 1_764_666_846_031_494,
    key: "default/example-foo",
    stage: "dequeue",
    len: 0,
    worker: 1,
  },
  {
    seq: 4,
    ts: 1_764_666_846_031_554,
    key: "default/example-foo",
    stage: "read",
    rv: "1001",
    generation: 1,
    worker: 1,
  },
  {
    seq: 5,
    ts: 1_764_666_846_040_554,
    key: "default/example-foo",
    stage: "write",
    verb: "updateStatus",
    target: "foos/default/example-foo/status",
    code: 200,
    rv: "1003",
    changed: true,
    fields: ["status.availableReplicas"],
    worker: 1,
    extra: { traceId: "abc", nested: { deep: [1, 2] } },
  },
  {
    seq: 6,
    ts: 1_764_666_846_041_000,
    key: "default/example-foo",
    stage: "done",
    outcome: "synced",
    worker: 1,
  },
  {
    seq: 7,
    ts: 1_764_666_846_041_100,
    key: "",
    stage: "note",
    level: "I",
    text: "Starting workers",
    src: "controller.go:177",
  },
];

describe("JSONL", () => {
  it("round-trips every kind of record, unknown fields included", () => {
    const file =
      encodeHeader({
        created: "2026-12-02T09:14:06Z",
        source: "live",
        extra: { cluster: "embedded" },
      }) + events.map(encodeEvent).join("");
    const { events: back, reader } = readTraceText(file);
    expect(reader.format).toBe("jsonl");
    expect(reader.header).toEqual({
      loopscope: "trace",
      version: 1,
      created: "2026-12-02T09:14:06Z",
      source: "live",
      extra: { cluster: "embedded" },
    });
    expect(back).toEqual(events);
    expect(reader.diagnostics).toEqual([]);
    expect(back.map(encodeEvent).join("")).toBe(events.map(encodeEvent).join(""));
  });

  it("reads `inferred` on enqueue and done as a field of the model, not an extra", () => {
    const lines =
      '{"seq":1,"ts":5,"key":"a/b","stage":"enqueue","causeSeq":0,"inferred":true}\n' +
      '{"seq":2,"ts":6,"key":"a/b","stage":"done","outcome":"synced","inferred":true}\n' +
      '{"seq":3,"ts":7,"key":"a/b","stage":"done","outcome":"synced","inferred":"yes"}\n';
    const { events: back } = readTraceText(lines);
    expect(back[0]).toEqual({
      seq: 1,
      ts: 5,
      key: "a/b",
      stage: "enqueue",
      causeSeq: 0,
      inferred: true,
    });
    expect(back[1]).toEqual({
      seq: 2,
      ts: 6,
      key: "a/b",
      stage: "done",
      outcome: "synced",
      inferred: true,
    });
    expect(back[2].extra).toEqual({ inferred: "yes" });
  });

  it("keeps fields of a newer writer in extra and writes them back at top level", () => {
    const line =
      '{"seq":1,"ts":5,"key":"a/b","stage":"dequeue","worker":2,"queueShard":7,"len":"many"}\n';
    const {
      events: [e],
    } = readTraceText('{"loopscope":"trace","version":2,"feature":"x"}\n' + line);
    expect(e).toEqual({
      seq: 1,
      ts: 5,
      key: "a/b",
      stage: "dequeue",
      worker: 2,
      extra: { queueShard: 7, len: "many" },
    });
    expect(JSON.parse(encodeEvent(e))).toEqual(JSON.parse(line));
  });

  it("writes back an extra named as a field of the record in a nested extra, not dropped", () => {
    // A seq that is no seq is kept in extra.seq, the record renumbered; flattened back, the
    // record's own seq won and "abc" was lost.
    const line = '{"seq":"abc","ts":5,"key":"a/b","stage":"dequeue","extra":{"ts":"x"},"q":1}\n';
    const [e] = readTraceText(line).events;
    expect(e).toMatchObject({ seq: 1, extra: { seq: "abc", ts: "x", q: 1 } });
    const written = encodeEvent(e);
    expect(JSON.parse(written)).toEqual({
      seq: 1,
      ts: 5,
      key: "a/b",
      stage: "dequeue",
      q: 1,
      extra: { seq: "abc", ts: "x" },
    });
    expect(readTraceText(written).events).toEqual([e]);
  });

  it("tolerates a torn last line and reports bad records with their line numbers", () => {
    const text =
      encodeHeader() +
      encodeEvent(events[0]) +
      "{not json}\n" +
      '{"seq":9,"ts":1,"key":"a/b","stage":"warp"}\n' +
      encodeEvent(events[2]) +
      encodeEvent(events[3]).slice(0, 30);
    const { events: back, reader } = readTraceText(text);
    expect(back.map((e) => e.stage)).toEqual(["watch", "dequeue"]);
    expect(reader.diagnostics).toEqual([
      { line: 3, level: "error", message: "not a JSON record; line skipped" },
      { line: 4, level: "error", message: 'unknown or missing "stage" ("warp")' },
      { line: 6, level: "warn", message: "torn last line (the file was cut mid-write); ignored" },
    ]);
  });

  it("reads each record of a line that lost its newline, and the one written after a cut record", () => {
    // `cat a.jsonl b.jsonl` where a's last line has no newline; a record cut short by a crash,
    // then the next writer's record on the same line; two records joined by a lone "\r".
    const text =
      encodeHeader() +
      encodeEvent(events[0]).trimEnd() +
      encodeHeader({ source: "live" }) +
      encodeEvent(events[1]).slice(0, 30) +
      encodeEvent(events[2]).trimEnd() +
      "\r" +
      encodeEvent(events[3]);
    const { events: back, reader } = readTraceText(text);
    expect(back).toEqual(events.slice(0, 4).filter((e) => e !== events[1]));
    expect(reader.diagnostics).toEqual([
      {
        line: 2,
        level: "warn",
        message: "2 JSON records on one line (a newline lost?): both read",
      },
      { line: 2, level: "warn", message: "a second trace header; ignored" },
      {
        line: 3,
        level: "warn",
        message:
          "JSON records on one line after text that is none (a record cut short, then the next written after it?): 2 read, 1 cut-short part not read",
      },
    ]);
  });

  it("renumbers a seq that goes backwards and keeps the original", () => {
    const text = encodeEvent({ ...events[2], seq: 10 }) + encodeEvent({ ...events[3], seq: 4 });
    const { events: back, reader } = readTraceText(text);
    expect(back.map((e) => e.seq)).toEqual([10, 11]);
    expect(back[1].extra).toEqual({ fileSeq: 4 });
    expect(reader.diagnostics.map((d) => d.level)).toEqual(["warn", "warn"]); // no header; renumbered
  });
});

describe("events from the server", () => {
  const records: unknown[] = [
    { seq: 1, ts: 10, key: "ns/a", stage: "enqueue", len: 1 },
    // An optional field of the wrong type is kept in extra, as in a file.
    { seq: 2, ts: 11, key: "ns/a", stage: "dequeue", len: "3" },
    // No seq of its own, a stage it does not know, not an object: left out.
    { ts: 12, key: "ns/a", stage: "read" },
    { seq: 4, ts: 13, key: "ns/a", stage: "toString" },
    "noise",
    { seq: 5, ts: 14, key: "ns/a", stage: "done", outcome: "synced", inferred: true },
  ];

  it("are checked alike on the WebSocket (records) and in a catch-up (JSONL lines)", () => {
    const fromSocket = decodeEventRecords(JSON.parse(JSON.stringify(records)) as unknown[]);
    const body =
      encodeHeader({ source: "live" }) + records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    expect(decodeEventLines(body)).toEqual(fromSocket);
    expect(fromSocket).toEqual([
      { seq: 1, ts: 10, key: "ns/a", stage: "enqueue", len: 1 },
      { seq: 2, ts: 11, key: "ns/a", stage: "dequeue", extra: { len: "3" } },
      { seq: 5, ts: 14, key: "ns/a", stage: "done", outcome: "synced", inferred: true },
    ]);
  });
});
