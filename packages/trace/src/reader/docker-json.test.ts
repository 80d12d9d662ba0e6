/**
 * A klog log as Docker's json-file driver keeps it (/var/lib/docker/containers/<id>/<id>-json.log,
 * or /var/log/containers/*.log on a dockershim-era node): each line of the controller a JSON record
 * `{"log":"I1202 …\n","stream":"stderr","time":"…"}`, a line over 16 KB in several records.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { TraceReader } from "./trace-reader.ts";
import { fixture } from "../testing/fixtures.ts";
import { analysisRecord } from "../testing/golden.ts";
import { expectSame } from "../testing/reader-paths.ts";
import { takeDockerRecord } from "./docker-records.ts";
import { PartialLines } from "./partial-lines.ts";
import type { TraceEvent } from "../event.ts";

const utf8 = new TextEncoder();
/** A year the logs are not of: the year read must come from the records' times. */
const NOW = () => new Date(Date.UTC(2031, 0, 1));

/** The record Docker writes of `log` (Go's JSON escaping: <, > and & as \u003c, \u003e, \u0026). */
const record = (log: string, time: string, stream = "stderr") =>
  `{"log":${JSON.stringify(log)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")},"stream":"${stream}","time":"${time}"}`;

/** The events with what only a file's lines decide (raw, line) left out. */
const portable = (events: TraceEvent[]) => events.map(({ raw: _r, line: _l, ...e }) => e);

describe("a Docker json-file log of the controller", () => {
  const docker = fixture("stage/create-docker-json.log");
  const plain = fixture("stage/create-canonical.log");

  it("reads as the same klog log: the same events and the same analysis", () => {
    const d = readTraceText(docker, { now: NOW });
    const k = readTraceText(plain, { year: 2026 });
    expect(d.reader.format).toBe("docker-json");
    expect(d.events.length).toBe(52);
    expect(portable(d.events)).toEqual(portable(k.events));
    expect(analysisRecord(d.events)).toBe(analysisRecord(k.events));
    // Each event on the line of its record; the line read as `docker logs --timestamps` prints it.
    const records = docker.split("\n");
    for (const e of d.events) {
      const r = JSON.parse(records[e.line! - 1]) as { log: string; time: string };
      expect(e.raw).toBe(`${r.time} ${r.log.slice(0, -1)}`);
    }
  });

  it("takes the year from the records' time, as from a kubectl logs --timestamps prefix", () => {
    const d = readTraceText(docker, { now: NOW });
    expect(d.reader.diagnostics).toEqual([
      {
        line: 1,
        level: "info",
        message:
          "klog lines carry no year: read as 2026 (from the timestamp before the klog header), times as UTC",
      },
    ]);
    expect(new Date(d.events[0].ts / 1000).toISOString()).toBe("2026-12-02T09:14:05.912Z");
  });

  it("reads the same from bytes in any pieces, on the page's path as on the CLI's", () => {
    const read = expectSame(utf8.encode(docker), [1, 150, 4096]);
    expect(read.format).toBe("docker-json");
    expect(read.events.length).toBe(52);
  });

  it("unescapes the record's JSON: quotes, \\u003c and non-ASCII text", () => {
    const log = [
      record(
        "I1202 09:14:06.031344       1 controller.go:131] STAGE/watch kind=Foo event=add key=default/café rv=1001\n",
        "2026-12-02T09:14:06.031400000Z",
      ),
      record(
        'E1202 09:14:06.045600       1 controller.go:227] "Error syncing; requeuing for later retry" err="<nil> & more" objectReference="default/café"\n',
        "2026-12-02T09:14:06.045700000Z",
      ),
      "",
    ].join("\n");
    expect(log).toContain("\\u003cnil\\u003e \\u0026 more");
    const { events } = readTraceText(log, { now: NOW });
    expect(events.map((e) => [e.stage, e.key])).toEqual([
      ["watch", "default/café"],
      ["done", "default/café"],
    ]);
    expect(events[1]).toMatchObject({ outcome: "requeued", error: "<nil> & more" });
  });
});

describe("a line Docker split into partial records (over 16 KB)", () => {
  const T = (us: number) => `2026-12-02T09:14:06.${String(us).padStart(6, "0")}000Z`;
  const DEQ = `I1202 09:14:06.031494       1 controller.go:217] STAGE/dequeue key=default/example-foo len=0\n`;
  // A pass that fails with a long error: its key comes after the error, past the 16 KB cut.
  const ERROR = `E1202 09:14:06.045600       1 controller.go:227] "Error syncing; requeuing for later retry" err="${"x".repeat(20_000)}" objectReference="default/example-foo"\n`;
  const CUT = 16 * 1024;
  const first = record(ERROR.slice(0, CUT), T(45700));
  const second = record(ERROR.slice(CUT), T(45701));

  it("is read as the one line it was, on the line of its first record", () => {
    const log = [record(DEQ, T(31500)), first, second, ""].join("\n");
    const { events, reader } = readTraceText(log, { now: NOW });
    expect(events.map((e) => [e.stage, e.key, e.line])).toEqual([
      ["dequeue", "default/example-foo", 1],
      ["done", "default/example-foo", 2],
    ]);
    expect(events[1]).toMatchObject({ outcome: "requeued", error: "x".repeat(20_000) });
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    expectSame(utf8.encode(log), [CUT, CUT + 300]);
  });

  it("joins a stream's pieces past the other stream's records", () => {
    const other = record("listening on :8080\n", T(45700), "stdout");
    const log = [first, other, second, record(DEQ, T(50000)), ""].join("\n");
    const { events } = readTraceText(log, { now: NOW });
    expect(events.map((e) => [e.stage, e.line])).toEqual([
      ["done", 1],
      ["dequeue", 4],
    ]);
  });

  it("has its key judged by the line joined, not by its last record alone", () => {
    const bad = DEQ.replace("example-foo", "caf\uFFFD");
    const log = [record(bad.slice(0, 70), T(31500)), record(bad.slice(70), T(31501)), ""];
    const { events, reader } = readTraceText(log.join("\n"), { now: NOW });
    expect(events).toEqual([]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([
      {
        line: 1,
        level: "error",
        message: 'invalid UTF-8 in the key "default/caf\uFFFD": line not read',
      },
    ]);
  });

  it("is read, with a warning, when the log ends before its last record", () => {
    const log = [record(DEQ, T(31500)), record(ERROR.slice(0, CUT), T(45700)), ""].join("\n");
    const { events, reader } = readTraceText(log, { now: NOW });
    // The key is in the piece that never came: no pass end, but nothing made up either.
    expect(events.map((e) => e.stage)).toEqual(["dequeue", "note"]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([
      {
        line: 2,
        level: "warn",
        message:
          "the log ends inside this line (its last Docker partial record never came): it may be incomplete",
      },
    ]);
  });
});

describe("a line in partial records over the length limit", () => {
  it("is not kept, only its length, and the next line is read again", () => {
    const lines = new PartialLines(10);
    const take = (log: string, no: number) =>
      takeDockerRecord(lines, { log, stream: "stderr", time: undefined }, no);
    expect(take("123456", 1)).toBeUndefined();
    expect(take("7890ab", 2)).toBeUndefined();
    expect(take("c\n", 3)).toBe(13);
    expect(take("short\n", 4)).toEqual({ text: "short", line: 4 });
    expect(take("cut 12345678", 5)).toBeUndefined();
    expect(lines.rest()).toEqual([12]);
  });
});

describe("telling a Docker json-file log from loopscope's JSONL", () => {
  it("reads loopscope's JSONL as JSONL, with or without its header", () => {
    const jsonl = fixture("../../../public/traces/create-foo.jsonl");
    expect(readTraceText(jsonl).reader.format).toBe("jsonl");
    const headless = jsonl.slice(jsonl.indexOf("\n") + 1);
    const r = readTraceText(headless);
    expect(r.reader.format).toBe("jsonl");
    expect(r.events.length).toBeGreaterThan(0);
  });

  it("reads a first record with a `log` and a `stage` as JSONL (a JSONL event needs its stage)", () => {
    const reader = new TraceReader();
    reader.push('{"seq":1,"ts":1,"key":"a/b","stage":"note","text":"t","log":"x"}\n');
    reader.end();
    expect(reader.format).toBe("jsonl");
    expect(reader.events).toBe(1);
  });

  it("says which lines of a Docker log are no records of it", () => {
    const log = [
      record(
        "I1202 09:14:06.031494       1 controller.go:217] STAGE/dequeue key=default/example-foo len=0\n",
        "2026-12-02T09:14:06.031500000Z",
      ),
      '{"seq":2,"ts":1,"key":"a/b","stage":"dequeue"}',
      "not json",
      '{"log":"I1202 09:14:06.0',
    ].join("\n");
    const { events, reader } = readTraceText(log, { now: NOW });
    expect(events.length).toBe(1);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([
      {
        line: 2,
        level: "error",
        message: 'not a record of Docker\'s json-file log (no "log" string); line skipped',
      },
      { line: 3, level: "error", message: "not a JSON record; line skipped" },
      { line: 4, level: "warn", message: "torn last line (the file was cut mid-write); ignored" },
    ]);
  });
});
