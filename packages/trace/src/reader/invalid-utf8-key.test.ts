/**
 * Bytes that are not UTF-8 in a key (a log damaged on disk, a line cut inside a character) decode
 * to U+FFFD: such a key names no Foo. Its line gets a diagnostic and makes no phantom Foo.
 */
import { describe, expect, it } from "vitest";
import { TraceReader } from "./trace-reader.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import type { TraceEvent } from "../event.ts";

const enc = new TextEncoder();
const bytesOf = (...parts: (string | number[])[]) => {
  const out: number[] = [];
  for (const p of parts) out.push(...(typeof p === "string" ? enc.encode(p) : p));
  return Uint8Array.from(out);
};

function read(bytes: Uint8Array, piece = bytes.length) {
  const reader = new TraceReader({ year: 2026 });
  const events: TraceEvent[] = [];
  for (let at = 0; at < bytes.length; at += piece)
    events.push(...reader.push(bytes.subarray(at, at + piece)));
  events.push(...reader.end());
  const analyzer = new Analyzer();
  analyzer.pushAll(events);
  return { reader, events, analyzer };
}

const H = "I1202 09:00:00.000000    7 controller.go:1] ";

describe("invalid UTF-8 in a key", () => {
  // 0xff is never UTF-8; 0xe2 0x82 is a character cut short; "é" in the message is valid.
  const log = bytesOf(
    `${H}STAGE/dequeue key=default/foo worker=1\n`,
    `${H}STAGE/read key=default/f`,
    [0xff],
    `oo rv=1\n`,
    `${H}"Successfully synced" objectName="default/fo`,
    [0xe2, 0x82],
    `"\n`,
    `${H}"Starting" key="x/`,
    [0xff],
    `" note="é"\n`,
    `${H}"Successfully synced" objectName="default/foo"\n`,
  );

  it.each([
    ["in one piece", log.length],
    ["in pieces of 7 bytes", 7],
  ])("gets a diagnostic instead of a phantom Foo (%s)", (_how, piece) => {
    const { reader, events, analyzer } = read(log, piece);
    expect(analyzer.keys()).toEqual(["default/foo"]);
    expect(events.map((e) => [e.stage, e.key, e.line])).toEqual([
      ["dequeue", "default/foo", 1],
      ["note", "", 4],
      ["done", "default/foo", 5],
    ]);
    const problems = reader.diagnostics.filter((d) => d.level !== "info");
    expect(problems.map((d) => [d.line, d.level])).toEqual([
      [2, "error"],
      [3, "error"],
      [4, "warn"],
    ]);
    expect(problems[0].message).toBe('invalid UTF-8 in the key "default/f\uFFFDoo": line not read');
  });

  it("in a JSONL record, likewise", () => {
    const { reader, events } = read(
      bytesOf(
        '{"loopscope":"trace","version":1}\n',
        '{"seq":1,"ts":1,"key":"default/b',
        [0xc3],
        'r","stage":"dequeue"}\n',
        '{"seq":2,"ts":2,"key":"default/bar","stage":"dequeue"}\n',
      ),
    );
    expect(events.map((e) => e.key)).toEqual(["default/bar"]);
    expect(reader.diagnostics).toEqual([
      { line: 2, level: "error", message: expect.stringContaining("invalid UTF-8 in the key") },
    ]);
  });
});
