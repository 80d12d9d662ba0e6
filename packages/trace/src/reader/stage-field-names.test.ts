/**
 * STAGE lines whose field names do not say what they seem to: a name the event has itself
 * (`seq=`, `line=`, `src=`, a second spelling of the key), and a name given twice. Each is read as
 * before — the value kept in extra, the last of a repeated name — and said once per file and name.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { decodeEventLine } from "../jsonl/decode-event.ts";
import { encodeEvent } from "../jsonl/format.ts";
import { expectSame } from "../testing/reader-paths.ts";

const utf8 = new TextEncoder();
const H = (us: string, src: string) => `I1202 09:14:06.${us}   48211 ${src}] `;

/** The log's events and its diagnostics but the year's, read as text and as bytes alike. */
function read(log: string) {
  expectSame(utf8.encode(log), [23, 160]);
  const { events, reader } = readTraceText(log, { year: 2026 });
  return { events, said: reader.diagnostics.filter((d) => d.level !== "info") };
}

describe("a STAGE line's field named as a field of the event", () => {
  const log = [
    `${H("041020", "controller.go:353")}STAGE/enqueue key=default/example-foo len=1 seq=7 line=12`,
    `${H("041120", "controller.go:353")}STAGE/enqueue key=default/example-foo len=1 seq=8 line=13`,
    `${H("041220", "controller.go:217")}STAGE/dequeue object=default/example-foo key=default/other-foo src=worker.go:9`,
    `${H("041320", "controller.go:340")}STAGE/write verb=update target=foos/default/example-foo statusCode=200 code=409 ts=5`,
    "",
  ].join("\n");
  const { events, said } = read(log);

  it("keeps the value in extra, not as the event's field", () => {
    expect(events.map((e) => [e.seq, e.line, e.key, e.src, e.extra])).toEqual([
      [1, 1, "default/example-foo", "controller.go:353", { seq: "7", line: "12" }],
      [2, 2, "default/example-foo", "controller.go:353", { seq: "8", line: "13" }],
      [
        3,
        3,
        "default/example-foo",
        "controller.go:217",
        { key: "default/other-foo", src: "worker.go:9" },
      ],
      [4, 4, "default/example-foo", "controller.go:340", { code: "409", ts: "5" }],
    ]);
    expect(events[3]).toMatchObject({ code: 200, ts: events[2].ts + 100 });
  });

  it("says so once per name, at its first line", () => {
    expect(said.map((d) => [d.line, d.level, d.message])).toEqual([
      [
        1,
        "warn",
        expect.stringMatching(
          /^STAGE\/enqueue: seq="7" is not read as the event's seq \(the reader sets the event's seq itself\): kept as extra.seq/,
        ),
      ],
      [
        1,
        "warn",
        expect.stringMatching(
          /^STAGE\/enqueue: line="12" is not read as the event's line .*: kept as extra.line/,
        ),
      ],
      [
        3,
        "warn",
        expect.stringMatching(
          /^STAGE\/dequeue: key="default\/other-foo" is not read as the event's key \(the event's key is the line's first spelling of it\)/,
        ),
      ],
      [3, "warn", expect.stringMatching(/^STAGE\/dequeue: src="worker.go:9" is not read/)],
      [
        4,
        "warn",
        expect.stringMatching(/^STAGE\/write: code="409" is not read as the event's code/),
      ],
      [4, "warn", expect.stringMatching(/^STAGE\/write: ts="5" is not read/)],
    ]);
  });

  it("writes it back to JSONL in a nested extra, which reads back as the same extra", () => {
    for (const e of events) expect(decodeEventLine(encodeEvent(e).trimEnd())).toEqual(e);
    expect(JSON.parse(encodeEvent(events[0]))).toMatchObject({ seq: 1, extra: { seq: "7" } });
  });
});

describe("a STAGE line that gives a name twice", () => {
  const log = [
    `${H("041220", "controller.go:217")}STAGE/dequeue key=default/example-foo key=default/other-foo len=0`,
    `${H("041320", "controller.go:217")}STAGE/dequeue key=default/a key=default/b len=0 len=1`,
    `${H("041420", "controller.go:217")}STAGE/dequeue key=default/c len=0 attempt=1 attempt=2 attempt=3`,
    "",
  ].join("\n");
  const { events, said } = read(log);

  it("keeps the last value", () => {
    expect(events.map((e) => [e.key, e.stage === "dequeue" && e.len, e.extra])).toEqual([
      ["default/other-foo", 0, undefined],
      ["default/b", 1, undefined],
      ["default/c", 0, { attempt: "3" }],
    ]);
  });

  it("says so once per name, with the values in order", () => {
    expect(said.map((d) => [d.line, d.level, d.message])).toEqual([
      [
        1,
        "warn",
        `STAGE/dequeue: key= given twice ("default/example-foo", "default/other-foo"): the last is kept, as JSON parsers and klog's merge of key/value lists do (said once per name)`,
      ],
      [
        2,
        "warn",
        expect.stringMatching(/^STAGE\/dequeue: len= given twice \("0", "1"\): the last is kept/),
      ],
      [
        3,
        "warn",
        expect.stringMatching(/^STAGE\/dequeue: attempt= given 3 times \("1", "2", "3"\)/),
      ],
    ]);
  });
});

describe("a STAGE line that gives names many times", () => {
  it("shows a name's first values and the kept one", () => {
    const { said } = read(
      `${H("041220", "controller.go:217")}STAGE/dequeue key=default/c len=1 len=2 len=3 len=4 len=5 len=6\n`,
    );
    expect(said.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /^STAGE\/dequeue: len= given 6 times \("1", "2", "3", …, "6"\): the last/,
      ),
    ]);
  });

  it("says each of thousands of names of one line, each given twice", () => {
    const pairs = Array.from({ length: 2_000 }, (_, i) => `n${i}=a n${i}=b`).join(" ");
    const line = `${H("041220", "controller.go:217")}STAGE/dequeue key=default/c ${pairs}\n`;
    const { events, reader } = readTraceText(line, { year: 2026 });
    expect(events[0].extra).toMatchObject({ n0: "b", n1999: "b" });
    expect(reader.diagnosticCount).toBe(1 + 2_000);
    expect(reader.diagnostics[1].message).toMatch(/^STAGE\/dequeue: n0= given twice \("a", "b"\)/);
  });
});

describe("names said once, in a log of many", () => {
  it("are remembered up to 1000 names, and said each time past them", () => {
    const line = (i: number, names: string) =>
      `${H(String(100_000 + i), "controller.go:217")}STAGE/dequeue key=default/example-foo ${names}`;
    const lines = Array.from({ length: 1000 }, (_, i) => line(i, `n${i}=1 n${i}=2`));
    lines.push(line(1000, "a=1 a=2"), line(1001, "a=1 a=2"), line(1002, "n0=1 n0=2"), "");
    const { reader } = readTraceText(lines.join("\n"), { year: 2026, maxDiagnostics: 2000 });
    const said = reader.diagnostics.filter((d) => d.level !== "info").map((d) => d.line);
    // Lines 1–1000 each say a name of their own; a= (lines 1001, 1002), past them, is said twice;
    // n0= again (line 1003), among them, is not.
    expect(said).toHaveLength(1002);
    expect(said.slice(-3)).toEqual([1000, 1001, 1002]);
  });
});
