/**
 * klog logs written by two writers at once, or cut mid-write: a line cut short with the next one
 * glued to it, a STAGE line cut inside its key with the next one on a line of its own, and a last
 * line with no end.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { expectSame } from "../testing/reader-paths.ts";

const utf8 = new TextEncoder();

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

describe("a klog line with another glued into it, read well as one", () => {
  const DEQ = `${H("300000", "controller.go:217")}STAGE/dequeue key=default/example-foo len=0`;
  const READ = `${H("310000", "controller.go:268")}STAGE/read key=default/example-foo rv=1001 generation=1`;
  const NOTE = `${H("305000", "controller.go:199")}"Event occurred" object="default/example-foo"`;
  const read = (text: string) => {
    expectSame(utf8.encode(text), [17, 130, 200]);
    const r = readTraceText(text, { year: 2026 });
    const warnings = r.reader.diagnostics.filter((d) => d.level !== "info");
    return { events: r.events, warnings, count: r.reader.diagnosticCount };
  };
  const readLine = { stage: "read", src: "controller.go:268", line: 1, rv: "1001", generation: 1 };
  const time = (us: string) => Date.UTC(2026, 11, 2, 9, 14, 6) * 1000 + Number(us);

  it("reads the glued line on its own, and says the one cut inside its key was not read", () => {
    // The dequeue's key cut to "default/ex": read, it would be a Foo that is not.
    const { events, warnings } = read(
      `${DEQ.slice(0, DEQ.indexOf("len=") - 9)}${READ}\n${SYNCED}\n`,
    );
    expect(events.map((e) => e.stage)).toEqual(["read", "done"]);
    expect(events[0]).toMatchObject({ ...readLine, ts: time("310000") });
    expect(warnings).toEqual([
      {
        line: 1,
        level: "warn",
        message:
          'cut short: another log line begins inside it ("I1202 09:14:06.31000…"); that line was read, the cut one was not',
      },
    ]);
  });

  it("reads both when the line before is whole but for the word that runs into the glued one", () => {
    const { events, warnings } = read(`${DEQ}${READ}\n`);
    expect(events.map((e) => [e.seq, e.stage, e.key, e.ts])).toEqual([
      [1, "dequeue", "default/example-foo", time("300000")],
      [2, "read", "default/example-foo", time("310000")],
    ]);
    expect(events[0]).not.toHaveProperty("len");
    expect(events[1]).toMatchObject(readLine);
    expect(warnings).toEqual([
      {
        line: 1,
        level: "warn",
        message:
          'another log line begins inside it ("I1202 09:14:06.31000…"): both were read, this one without its last word, which may be cut short: len=0',
      },
    ]);
  });

  it("reads a STAGE line glued into a note, and a pass end glued into that, each as a line", () => {
    const cut = (line: string) => line.slice(0, line.length - 8);
    const { events, warnings } = read(`${cut(NOTE)}${cut(READ)}${SYNCED}\n${ENQ}\n`);
    expect(events.map((e) => [e.seq, e.stage, e.src, e.ts])).toEqual([
      [1, "note", "controller.go:199", time("305000")],
      [2, "read", "controller.go:268", time("310000")],
      [3, "done", "controller.go:227", time("045600")],
      [4, "enqueue", "controller.go:353", time("041020")],
    ]);
    expect(events[0]).toMatchObject({ key: "", text: "Event occurred" });
    expect(events[1]).toMatchObject({ key: "default/example-foo", rv: "1001" });
    expect(events[1]).not.toHaveProperty("generation");
    expect(warnings.map((d) => [d.line, d.level])).toEqual([
      [1, "warn"],
      [1, "warn"],
    ]);
  });

  it("reads a pass end glued into a note as a pass end of its own time", () => {
    const { events, warnings } = read(`${NOTE.slice(0, -8)}${SYNCED}\n`);
    expect(events.map((e) => [e.stage, e.key, e.src, e.ts])).toEqual([
      ["note", "", "controller.go:199", time("305000")],
      ["done", "default/example-foo", "controller.go:227", time("045600")],
    ]);
    expect(warnings).toEqual([
      {
        line: 1,
        level: "warn",
        message: expect.stringMatching(/^another log line begins inside it .*: both were read/),
      },
    ]);
  });

  it("reads a line of many glued lines, one after another", () => {
    const { events, count } = read(`${Array(20_000).fill(DEQ).join("")}\n`);
    expect(events).toHaveLength(20_000);
    expect(events.every((e, i) => e.seq === i + 1 && e.key === "default/example-foo")).toBe(true);
    expect(count).toBe(1 + 19_999);
  });

  it(`leaves whole a line whose values hold a "]", or even a header, quoted`, () => {
    const write = `${H("045000", "controller.go:340")}STAGE/write verb=update target=foos/default/example-foo reason="[${H("000000", "c.go:1")}x]" fields=[status]`;
    const note = `${H("045100", "controller.go:199")}"Synced" items="[a b]" objectName="default/example-foo"`;
    const { events, warnings } = read(`${write}\n${note}\n`);
    expect(events.map((e) => e.stage)).toEqual(["write", "note"]);
    expect(events[0]).toMatchObject({ reason: `[${H("000000", "c.go:1")}x]` });
    expect(warnings).toEqual([]);
  });
});

describe("a STAGE line cut short inside its key, the next line on a line of its own", () => {
  /** `n` (< 90) watch lines of controller.go:131, each with rv= after its key, 10 ms apart. */
  const watches = (n: number, key = "default/example-foo") =>
    Array.from(
      { length: n },
      (_, i) =>
        `${H(String(100_000 + i * 10_000), "controller.go:131")}STAGE/watch kind=Foo event=update key=${key} rv=${1001 + i} oldRv=${1000 + i}`,
    );
  const CUT = `${H("900000", "controller.go:131")}STAGE/watch kind=Foo event=update key=defaul`;
  const RESTART = `I1202 09:14:07.000000   50122 controller.go:100] "Starting Foo controller"`;
  const read = (text: string) => {
    expectSame(utf8.encode(text), [41, 900]);
    const r = readTraceText(text, { year: 2026 });
    const said = r.reader.diagnostics.filter((d) => d.level !== "info");
    return { keys: [...new Set(r.events.map((e) => e.key))], said, events: r.events };
  };
  const cutSaid = {
    line: 71,
    level: "error",
    message:
      'STAGE/watch cut short: it ends in its key "defaul", where the 64 or more STAGE lines of controller.go:131 before it all went on after their key; not read (a log written across a crash?)',
  };

  it("is not read, where its call site's lines all went on after the key, and says so", () => {
    const { keys, said } = read([...watches(70), CUT, RESTART, ""].join("\n"));
    expect(keys).toEqual(["default/example-foo", ""]);
    expect(said).toEqual([cutSaid]);
  });

  it("is not read when NULs follow it (a crash), and the line after them is", () => {
    const { keys, said, events } = read([...watches(70), CUT, `\0\0\0\0${RESTART}`, ""].join("\n"));
    expect(keys).toEqual(["default/example-foo", ""]);
    expect(events.at(-1)).toMatchObject({ stage: "note", line: 72 });
    expect(said.map((d) => [d.line, d.level])).toEqual([
      [71, "error"],
      [72, "warn"],
    ]);
  });

  it("keeps judging after one: a call site's next cut line is not read either", () => {
    const { keys, said } = read([...watches(70), CUT, ...watches(70), CUT, ""].join("\n"));
    expect(keys).toEqual(["default/example-foo"]);
    expect(said.map((d) => [d.line, d.level])).toEqual([
      [71, "error"],
      [142, "error"],
    ]);
  });

  it("is not read at the end of a log without its newline: a few lines of its call site tell", () => {
    const { keys, said } = read([...watches(3), CUT].join("\n"));
    expect(keys).toEqual(["default/example-foo"]);
    expect(said.map((d) => [d.line, d.level, d.message])).toEqual([
      [4, "warn", "the log ends inside this line (cut mid-write?): it may be incomplete"],
      [
        4,
        "error",
        'STAGE/watch cut short: it ends in its key "defaul", where the 3 or more STAGE lines of controller.go:131 before it all went on after their key; not read (the log was cut mid-write?)',
      ],
    ]);
  });

  it("is read at the end of a log without its newline when its call site ends lines in the key", () => {
    // The exercise's write line ends in its key: a hand-made file that lost its last newline.
    const keyLast = Array.from(
      { length: 3 },
      (_, i) =>
        `${H(String(100_000 + i), "controller.go:131")}STAGE/watch kind=Foo event=update rv=${1001 + i} key=default/foo-${i}`,
    );
    const { keys, said } = read([...keyLast, CUT].join("\n"));
    expect(keys).toEqual(["default/foo-0", "default/foo-1", "default/foo-2", "defaul"]);
    expect(said.map((d) => d.level)).toEqual(["warn"]);
    // Too few lines of its call site to tell: read, with the warning.
    expect(read([...watches(2), CUT].join("\n")).keys).toEqual(["default/example-foo", "defaul"]);
  });

  it("reads a call site's lines that end in their key: cluster-scoped keys, a learner's own shape", () => {
    const cluster = `${[...watches(70, "example-foo"), ...watches(2, "other-foo")].join("\n")}\n`;
    expect(read(cluster).said).toEqual([]);
    // Its key last on some lines and not on others (fields in any order, some left out).
    const anyOrder = Array.from(
      { length: 100 },
      (_, i) =>
        `${H(String(100_000 + i), "controller.go:353")}STAGE/enqueue ${i % 10 === 9 ? `len=1 key=default/foo-${i}` : `key=default/foo-${i} len=1`}`,
    );
    const { keys, said } = read(`${anyOrder.join("\n")}\n`);
    expect(keys).toHaveLength(100);
    expect(said).toEqual([]);
  });

  it("reads one whose key ends it but its call site had too few lines to tell", () => {
    const { keys, said } = read([...watches(60), CUT, ""].join("\n"));
    expect(keys).toEqual(["default/example-foo", "defaul"]);
    expect(said).toEqual([]);
  });

  it("reads the part of a glued line before the glued one, its last word left out after its key", () => {
    const DEQ = (us: string) =>
      `${H(us, "controller.go:217")}STAGE/dequeue key=default/example-foo len=0`;
    const deqs = Array.from({ length: 70 }, (_, i) => DEQ(String(100_000 + i)));
    const READ = `${H("310000", "controller.go:268")}STAGE/read key=default/example-foo rv=1001 generation=1`;
    const { events, said } = read(`${deqs.join("\n")}\n${DEQ("300000")}${READ}\n`);
    expect(events.slice(-2).map((e) => [e.stage, e.line])).toEqual([
      ["dequeue", 71],
      ["read", 71],
    ]);
    expect(said.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /: both were read, this one without its last word, which may be cut short: len=0$/,
      ),
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
