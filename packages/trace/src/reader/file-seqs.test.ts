/**
 * A JSONL file whose seqs do not simply increase — two recordings joined with `cat`, a record
 * written twice, a hand-added note with no seq — reads as the recordings it holds: one bad record
 * moves the records after it without renumbering each of them, and every causeSeq still names
 * the event it named in the file, so passes keep their causes.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Pass } from "../analysis/model.ts";
import { analyze } from "../testing/fixtures.ts";
import { expectSame } from "../testing/reader-paths.ts";
import { FileSeqs } from "./file-seqs.ts";

const CREATE_FOO = readFileSync(
  fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url)),
  "utf8",
);
const KEY = "default/example-foo";
const lines = CREATE_FOO.trimEnd().split("\n");

/** What a pass was made of, by what its events were rather than by their seqs. */
function shape(p: Pass, seqOf: (seq: number | undefined) => string) {
  return {
    cause: p.cause,
    triggers: p.triggers.map((t) => [
      t.cause,
      seqOf(t.enqueueSeq),
      seqOf(t.watchSeq),
      seqOf(t.writeSeq),
    ]),
    read: seqOf(p.readSeq),
    writes: p.writeSeqs.map(seqOf),
    changing: p.changingWrites,
    noop: p.noopWrites,
    conflicts: p.conflicts,
  };
}

function passShapes(text: string) {
  const { events, reader, analyzer } = analyze(text);
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const seqOf = (seq: number | undefined) => {
    if (seq === undefined) return "-";
    const e = bySeq.get(seq);
    return e === undefined ? `missing ${seq}` : `${e.stage} ${e.ts}`;
  };
  return {
    passes: analyzer.passes(KEY).map((p) => shape(p, seqOf)),
    diagnostics: reader.diagnostics,
    events,
  };
}

describe("a JSONL file whose seqs do not increase", () => {
  const alone = passShapes(CREATE_FOO);

  it("the recording alone has causes to keep (the checks below can fail)", () => {
    expect(alone.passes.map((p) => p.cause)).toContain("self");
    expect(alone.passes.map((p) => p.cause)).toContain("external");
    expect(alone.diagnostics).toEqual([]);
  });

  it("two recordings joined: the second's passes are the recording's, causes and all", () => {
    const joined = passShapes(CREATE_FOO + CREATE_FOO);
    const second = joined.passes.slice(alone.passes.length);
    expect(second).toEqual(alone.passes);
    const n = lines.length;
    expect(joined.diagnostics.map((d) => [d.line, d.message.slice(0, 40)])).toEqual([
      [n + 1, "a second trace header; ignored"],
      [n + 2, "time goes back 1.7 s here, to 2026-12-02"],
      [n + 2, "seq 1 does not increase (the record befo"],
    ]);
  });

  it("a line written twice is read once, and nothing after it moves", () => {
    const twice = [...lines.slice(0, 10), lines[9], ...lines.slice(10)].join("\n") + "\n";
    const read = passShapes(twice);
    expect(read.passes).toEqual(alone.passes);
    expect(read.events.map((e) => e.seq)).toEqual(alone.events.map((e) => e.seq));
    expect(read.diagnostics).toEqual([
      { line: 11, level: "warn", message: expect.stringMatching(/^the record before again/) },
    ]);
  });

  it("a record with no seq moves those after it by one, with one diagnostic", () => {
    const ts = (JSON.parse(lines[3]!) as { ts: number }).ts;
    const note = JSON.stringify({ stage: "note", key: KEY, ts, text: "added by hand" });
    const read = passShapes([...lines.slice(0, 4), note, ...lines.slice(4)].join("\n") + "\n");
    expect(read.passes).toEqual(alone.passes);
    expect(read.diagnostics).toHaveLength(1);
    expect(read.diagnostics[0]!.message).toMatch(/read 1 higher/);
  });
});

describe("the replay worker's reader", () => {
  // It takes records straight to rows while their seqs are kept, and must hand the rest of
  // such a file to the general path: a row with the file's seq, or its causeSeq, would be wrong.
  it("makes the batch the general reader makes of joined and repeated records", () => {
    const twice = [...lines.slice(0, 10), lines[9], ...lines.slice(10)].join("\n") + "\n";
    for (const text of [CREATE_FOO + CREATE_FOO, twice, twice + CREATE_FOO]) {
      const read = expectSame(new TextEncoder().encode(text), [777, 4096]);
      expect(read.diagnostics.length).toBeGreaterThan(0);
    }
  });
});

describe("FileSeqs", () => {
  it("keeps increasing seqs as written, gaps included", () => {
    const seqs = new FileSeqs();
    expect([5, 6, 9, 20].map((s) => seqs.take(s))).toEqual([5, 6, 9, 20]);
    expect(seqs.cause(9)).toBe(9);
  });

  it("follows a cause to the latest run that gave its seq, and drops one that names none", () => {
    const seqs = new FileSeqs();
    expect([1, 2, 3, 1, 2].map((s) => seqs.take(s))).toEqual([1, 2, 3, 4, 5]);
    expect(seqs.cause(1)).toBe(4);
    expect(seqs.cause(3)).toBe(3);
    expect(seqs.cause(7)).toBeUndefined();
  });
});
