/**
 * A klog log as a CRI runtime (containerd, CRI-O) keeps it, kubelet's
 * /var/log/pods/<ns>_<pod>_<uid>/<container>/0.log: each line of the controller a record
 * `<time> stderr F <line>`, a line over 16 KiB in records tagged P, ended by the stream's next F.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { criLogAt } from "./cri-records.ts";
import { fixture } from "../testing/fixtures.ts";
import { analysisRecord } from "../testing/golden.ts";
import { chunked, expectSame, fast, general, plain } from "../testing/reader-paths.ts";
import type { TraceEvent, WriteEvent } from "../event.ts";

const utf8 = new TextEncoder();
/** The runtime's buffer: a longer line comes as pieces of this many bytes. */
const CUT = 16 * 1024;

/** The time the runtime stamps a record of the klog line `line` with: `ns` ns after klog's. */
const time = (line: string, ns = 123) => `2026-12-02T${line.slice(6, 21)}${ns}Z`;
/** The record the runtime writes of `line`. */
const record = (line: string, stream = "stderr") => `${time(line)} ${stream} F ${line}`;
/** The records the runtime writes of `line`, over 16 KiB: P, …, P, F. */
const records = (line: string, stream = "stderr"): string[] => {
  const n = Math.ceil(line.length / CUT);
  return Array.from(
    { length: n },
    (_, i) =>
      `${time(line, 123 + i)} ${stream} ${i < n - 1 ? "P" : "F"} ${line.slice(i * CUT, (i + 1) * CUT)}`,
  );
};

/** Another container output on stdout, between the pieces of a stderr line. */
const STDOUT = [
  'I1202 09:14:06.048700   48211 main.go:60] "Probe served" path="/healthz"',
  'I1202 09:14:06.048750   48211 main.go:60] "Probe served" path="/readyz"',
];

const lines = fixture("stage/create-canonical.log").split("\n").filter(Boolean);
/** A status write whose `fields=` list runs past three pieces: its rv and code in the last one. */
const AT = lines.findIndex((l) => l.includes("STAGE/write verb=updateStatus"));
// Few names, long ones: the analysis keeps a pass's changed fields in lists that grow one name at
// a time, each a copy of the one before.
const FIELDS = Array.from({ length: 400 }, (_, i) => `metadata.labels.${"x".repeat(120)}${i}`).join(
  ",",
);
const LONG = lines[AT].replace(" rv=1003", ` fields=${FIELDS} rv=1003`);

/** The log with the long line whole, after the stdout lines that come before its end. */
const whole = [
  ...lines.slice(0, AT).map((l) => record(l)),
  ...STDOUT.map((l) => record(l, "stdout")),
  record(LONG),
  ...lines.slice(AT + 1).map((l) => record(l)),
  "",
].join("\n");

/** The same log as the runtime writes it: the long line in P, P, P, F, stdout's records between. */
const [p1, p2, p3, f] = records(LONG);
const split = [
  ...lines.slice(0, AT).map((l) => record(l)),
  p1,
  record(STDOUT[0], "stdout"),
  p2,
  p3,
  record(STDOUT[1], "stdout"),
  f,
  ...lines.slice(AT + 1).map((l) => record(l)),
  "",
].join("\n");

/** The events without what only the file's lines decide. */
const lineless = (events: TraceEvent[]) => events.map(({ line: _l, ...e }) => e);
const rows = (read: ReturnType<typeof fast>) => {
  const { line: _l, ...columns } = plain(read.batch);
  return columns;
};

describe("a CRI log line split into P records", () => {
  it("has a line over 16 KiB in four records, its rv and code in the last", () => {
    expect(records(LONG).map((r) => r.slice(31, 39))).toEqual([
      "stderr P",
      "stderr P",
      "stderr P",
      "stderr F",
    ]);
    expect(f).toMatch(/ rv=1003 code=200$/);
  });

  it("reads as the line unsplit: the same events and analysis, on the line of its first record", () => {
    const s = general([utf8.encode(split)]);
    const w = general([utf8.encode(whole)]);
    expect(s.format).toBe("klog");
    expect(lineless(s.events)).toEqual(lineless(w.events));
    expect(analysisRecord(s.events)).toBe(analysisRecord(w.events));
    expect(s.diagnostics).toEqual(w.diagnostics);
    const write = s.events.find((e) => e.line === AT + 1) as WriteEvent;
    expect(write).toMatchObject({ stage: "write", rv: "1003", code: 200 });
    expect(write.fields).toHaveLength(400);
    // The line the runtime would have written whole: the first record's time and stream, F.
    expect(write.raw).toBe(record(LONG));
    // The same from text (a pasted log, a UTF-16 file).
    expect(lineless(readTraceText(split).events)).toEqual(lineless(w.events));
  });

  it("reads the same on the page's row path, in any pieces", () => {
    for (const keepRaw of [true, false]) {
      const cuts = [100, CUT + 3000, 2 * CUT + 50, 3 * CUT + 7000];
      const s = expectSame(utf8.encode(split), cuts, keepRaw);
      const w = fast(chunked(utf8.encode(whole), cuts), keepRaw);
      expect(rows(s)).toEqual(rows(w));
      expect(s.diagnostics).toEqual(w.diagnostics);
    }
  });

  it("is read as what it holds, with one warning, when the log ends before its F record", () => {
    const cut = split.slice(0, split.indexOf(p3) + p3.length + 1);
    for (const read of [general([utf8.encode(cut)]), expectSame(utf8.encode(cut), [2 * CUT])]) {
      expect(read.diagnostics.filter((d) => d.level !== "info")).toEqual([
        {
          line: AT + 1,
          level: "warn",
          message:
            "the log ends inside this line (the CRI record tagged F that ends it never came): it may be incomplete",
        },
      ]);
    }
    // Its first three pieces: a write of the Foo, without the rv and code the last one held.
    const { events } = readTraceText(cut);
    const last = events[events.length - 1] as WriteEvent;
    expect(last).toMatchObject({ stage: "write", key: "default/example-foo", line: AT + 1 });
    expect(last.rv).toBeUndefined();
    expect(last.raw).toBe(record(LONG.slice(0, 3 * CUT)));
  });

  it("joins each stream's records apart, both begun at once", () => {
    const out = `${STDOUT[0]} note="${"y".repeat(CUT)}"`;
    const [o1, o2] = records(out, "stdout");
    const log = [p1, o1, p2, p3, o2, f, ""].join("\n");
    const { events, reader } = readTraceText(log);
    expect(events.map((e) => [e.stage, e.line, e.raw])).toEqual([
      ["note", 2, record(out, "stdout")],
      ["write", 1, record(LONG)],
    ]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  });

  it("judges the joined line's key, though the record that ends it holds no invalid UTF-8", () => {
    const line = `I1202 09:14:06.048790   48211 controller.go:325] STAGE/write verb=updateStatus key=default/caf\uFFFD fields=${FIELDS} rv=1003 code=200`;
    const log = [...records(line), ""].join("\n");
    const { events, reader } = readTraceText(log);
    expect(events).toEqual([]);
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([
      {
        line: 1,
        level: "error",
        message: 'invalid UTF-8 in the key "default/caf\uFFFD": line not read',
      },
    ]);
  });
});

describe("what is a CRI record", () => {
  const at = (line: string) => criLogAt(utf8.encode(line), 0, line.length);

  it("is an RFC 3339 time, stdout or stderr, P or F, each followed by a space", () => {
    for (const time of [
      "2026-12-02T10:00:00.123456789Z",
      "2026-12-02T10:00:00Z",
      "2026-12-02T10:00:00.5+01:00",
      "2026-12-02T10:00:00-07:00",
    ]) {
      for (const prefix of [`${time} stderr F `, `${time} stdout P `]) {
        expect(at(`${prefix}I1202 10:00:00.123456       1 c.go:1] x`)).toBe(prefix.length);
        expect(at(prefix)).toBe(prefix.length);
      }
    }
  });

  it("is not a plain klog line, nor kubectl logs --timestamps', nor another prefix", () => {
    for (const line of [
      "I1202 10:00:00.123456       1 controller.go:100] STAGE/watch kind=Foo",
      "2026-12-02T10:00:00.123456789Z I1202 10:00:00.123456       1 c.go:1] x",
      "2026-12-02T10:00:00.123456789Z stdin F x",
      "2026-12-02T10:00:00.123456789Z stderr X x",
      "2026-12-02T10:00:00.123456789Z stderr F",
      "2026-12-02T10:00:00.123456789Z stderr Fx",
      "2026-12-02T10:00:00.Z stderr F x",
      "2026-12-02T10:00:00.123 stderr F x",
      "2026-12-02T10:00:00+0100 stderr F x",
      "2026-12-02 10:00:00Z stderr F x",
      "Dec 02 09:14:06 host sample-controller[48211]: I1202 10:00:00.123456 1 c.go:1] x",
    ]) {
      expect(at(line), line).toBe(-1);
    }
  });

  it("is read in a line of a window, nothing past its end", () => {
    const text = utf8.encode("2026-12-02T10:00:00\n.5Z stderr F x");
    expect(criLogAt(text, 0, 19)).toBe(-1);
    const t = utf8.encode("2026-12-02T10:00:00Z stderr F \n");
    expect(criLogAt(t, 0, t.length - 1)).toBe(t.length - 1);
    expect(criLogAt(t, 0, t.length - 2)).toBe(-1);
  });
});
