/**
 * klog logs written by two writers at once, or cut mid-write: a line cut short with the next one
 * glued to it, and a last line with no end.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";

const H = (t: string, src: string) => `I1202 09:14:06.${t}   48211 ${src}] `;
const ENQ = `${H("041020", "controller.go:353")}STAGE/enqueue key=default/example-foo len=0`;
const WRITE = `${H("045000", "controller.go:340")}STAGE/write verb=updateStatus target=foos/default/example-foo/status rv=1003 reason=`;
const SYNCED = `${H("045600", "controller.go:227")}"Successfully synced" objectName="default/example-foo"`;

describe("a klog line cut short, the next one glued to it", () => {
  const glued = `${ENQ.slice(0, ENQ.indexOf("STAGE/enqueue") + 11)}${WRITE}\n${SYNCED}\n`;
  const r = readTraceText(glued, { year: 2026 });

  it("reads the glued line, and says the cut one was lost", () => {
    expect(r.events.map((e) => e.stage)).toEqual(["write", "done"]);
    expect(r.events[0]).toMatchObject({ verb: "updateStatus", rv: "1003", line: 1 });
    const d = r.reader.diagnostics.filter((x) => x.level !== "info");
    expect(d).toEqual([
      {
        line: 1,
        level: "warn",
        message: expect.stringMatching(/^cut short: another log line begins inside it/),
      },
    ]);
  });
});

describe("a klog log that ends inside a line", () => {
  it("warns that its last line may be incomplete", () => {
    const r = readTraceText(`${WRITE}\n${SYNCED.slice(0, SYNCED.indexOf('"') + 1)}`, {
      year: 2026,
    });
    expect(r.reader.diagnostics.filter((x) => x.level === "warn")).toEqual([
      {
        line: 2,
        level: "warn",
        message: "the log ends inside this line (cut mid-write?): it may be incomplete",
      },
    ]);
  });

  it("says nothing of a log whose last line ends", () => {
    const r = readTraceText(`${WRITE}\n${SYNCED}\n`, { year: 2026 });
    expect(r.reader.diagnostics.filter((x) => x.level !== "info")).toEqual([]);
  });
});

describe("loopscope JSONL records mixed into a klog log", () => {
  const record = JSON.stringify({
    stage: "note",
    key: "default/example-foo",
    text: "x",
    ts: 1,
    seq: 9,
  });
  const r = readTraceText(`${ENQ}\n${record}\n${record}\nsome other output\n${SYNCED}\n`, {
    year: 2026,
  });

  it("reads the klog lines and says, once, that JSON records were not read", () => {
    expect(r.events.map((e) => e.stage)).toEqual(["enqueue", "done"]);
    expect(r.reader.diagnostics.filter((x) => x.level !== "info")).toEqual([
      {
        line: 2,
        level: "warn",
        message: expect.stringMatching(/^a JSON record in a klog log: not read/),
      },
    ]);
  });
});
