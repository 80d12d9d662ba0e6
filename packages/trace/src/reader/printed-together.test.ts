/**
 * A learner's STAGE lines printed without a newline (`fmt.Printf("STAGE/enqueue %s", key)`): the
 * records run together, or into the klog line written after them. Each is read as a line of its
 * own, with one warning for the line — none is lost unsaid.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { expectSame } from "../testing/reader-paths.ts";
import { analysisRecord } from "../testing/golden.ts";
import type { TraceEvent } from "../event.ts";

const START = 'I0501 09:46:50.210176       1 controller.go:206] "Started workers"';
const ENQUEUE =
  "I0501 09:46:50.306900       1 controller.go:353] STAGE/enqueue key=default/example-foo len=1";
const SYNCED =
  'I0501 09:46:50.479761       1 controller.go:232] "Successfully synced" objectName="default/example-foo"';
/** What the learner printed, each without its newline. */
const PRINTED = [
  "STAGE/watch default/example-foo",
  "STAGE/dequeue default/example-foo 0",
  "STAGE/read 17962048095",
  "STAGE/write create deployments/example-foo",
];

const read = (log: string) => {
  const { events, reader } = readTraceText(log, { year: 2026 });
  return { events, diagnostics: reader.diagnostics.filter((d) => d.level !== "info") };
};
const what = (events: TraceEvent[]) => events.map((e) => [e.line, e.stage, e.key]);
const warning = (line: number, message: string) => ({ line, level: "warn", message });
const SAID =
  'the program printed without a newline (a Printf format without "\\n"?); each was read as a line of its own';

describe("STAGE records printed without a newline", () => {
  it("are each read, run together on a line of their own", () => {
    const { events, diagnostics } = read(`${START}\n${PRINTED[0]}${PRINTED[1]}\n`);
    expect(what(events)).toEqual([
      [1, "note", ""],
      [2, "watch", "default/example-foo"],
      [2, "dequeue", "default/example-foo"],
    ]);
    expect(events[2]).toMatchObject({ len: 0, raw: PRINTED[1] });
    expect(diagnostics).toContainEqual(warning(2, `2 STAGE records on one line: ${SAID}`));
  });

  it("are each read, and the klog line they ran into", () => {
    const { events, diagnostics } = read(`${START}\n${PRINTED[0]}${ENQUEUE}\n`);
    expect(what(events)).toEqual([
      [1, "note", ""],
      [2, "watch", "default/example-foo"],
      [2, "enqueue", "default/example-foo"],
    ]);
    expect(events[2]).toMatchObject({ len: 1, src: "controller.go:353", raw: ENQUEUE });
    expect(diagnostics).toContainEqual(
      warning(2, `a STAGE record and a klog line on one line: ${SAID}`),
    );
  });

  it("read as the same events and passes as the lines printed with their newlines", () => {
    const lines = [START, ...PRINTED, SYNCED];
    const apart = read(lines.join("\n") + "\n");
    const together = read(`${START}\n${PRINTED.join("")}${SYNCED}\n`);
    const bare = (es: TraceEvent[]) => es.map(({ line: _l, raw: _r, ts: _t, ...e }) => e);
    expect(bare(together.events)).toEqual(bare(apart.events));
    expect(together.diagnostics.map((d) => d.message)).toContain(
      `4 STAGE records and a klog line on one line: ${SAID}`,
    );
    // The pass: dequeue, read, write, ended by the success line that ran into it.
    const passes = (es: TraceEvent[]) =>
      analysisRecord(es)
        .split("\n")
        .filter((l) => l.includes("pass {"));
    expect(passes(together.events)).toHaveLength(1);
  });

  it("split before a bracketed tag, and take the wrapper's time (in the year given)", () => {
    const log = `2024-05-01T09:46:50.5Z [STAGE/watch] default/example-foo[STAGE/dequeue] default/example-foo 0\n`;
    const { events } = read(log);
    expect(what(events)).toEqual([
      [1, "watch", "default/example-foo"],
      [1, "dequeue", "default/example-foo"],
    ]);
    expect(events.map((e) => e.ts)).toEqual([
      Date.UTC(2026, 4, 1, 9, 46, 50, 500) * 1000,
      Date.UTC(2026, 4, 1, 9, 46, 50, 500) * 1000,
    ]);
    expect(events[1].raw).toBe("[STAGE/dequeue] default/example-foo 0");
  });

  it("read the same on the page's row path, in any pieces", () => {
    const log = `${START}\n${PRINTED.join("")}${ENQUEUE}\n${PRINTED[0]}${PRINTED[1]}\n${SYNCED}\n`;
    const bytes = new TextEncoder().encode(log);
    expect(read(log).events.filter((e) => e.stage !== "note")).toHaveLength(8);
    for (const cuts of [[], [100], [90, 130, 200]]) expectSame(bytes, cuts);
  });
});

describe("a STAGE/ inside a quoted value", () => {
  it("is the value's text, not a record printed after it", () => {
    const write =
      'STAGE/write update foos/status example-foo err="admission webhook denied: annotation STAGE/read is reserved"';
    const { events, diagnostics } = read(`${START}\n${PRINTED[1]}\n${write}\n`);
    expect(what(events)).toEqual([
      [1, "note", ""],
      [2, "dequeue", "default/example-foo"],
      [3, "write", "default/example-foo"],
    ]);
    expect(events[2]).toMatchObject({
      reason: "admission webhook denied: annotation STAGE/read is reserved",
    });
    // Only the learner style's own note (a write without its key), not a glued record or a quote.
    expect(diagnostics.filter((d) => d.line === 3).map((d) => d.message)).toEqual([
      "STAGE/write without a key: read as the key of the one pass open, default/example-foo (said once)",
    ]);
  });

  it("does not hide a record glued after the quoted value", () => {
    const write = 'STAGE/write update foos/status example-foo err="has \\"STAGE/read\\" in it"';
    const { events } = read(`${START}\n${PRINTED[1]}\n${write}${PRINTED[1]}\n`);
    expect(what(events)).toEqual([
      [1, "note", ""],
      [2, "dequeue", "default/example-foo"],
      [3, "write", "default/example-foo"],
      [3, "dequeue", "default/example-foo"],
    ]);
  });
});
