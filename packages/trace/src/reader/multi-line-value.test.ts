/**
 * klog's multi-line values (klog v2.80+): a structured value with a newline is written `key=<`,
 * its lines after a tab, then ` >` and the line's other pairs (see klog/multi-line.ts). An "Error
 * syncing" whose error has a newline keeps its key and ends its pass, in every wrapper.
 */
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { fixture } from "../testing/fixtures.ts";
import { analysisRecord } from "../testing/golden.ts";
import { expectSame } from "../testing/reader-paths.ts";
import type { TraceEvent } from "../event.ts";

const LOG = fixture("stage/conflict-multiline-err.log");
const ERROR =
  'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": the object has been modified;\nplease apply your changes to the latest version and try again';
/** The "Error syncing" line as klog writes it when its error has no newline: the value quoted. */
const ONE_LINE = LOG.replace(
  /err=<\n\t(.*)\n\t(.*)\n > /,
  (_, a: string, b: string) => `err=${JSON.stringify(`${a}\n${b}`)} `,
);
/** The line of the entry's first line in LOG, `err=<` (its ` >` is line 26). */
const FIRST = 23;

const lines = (log: string) => log.split("\n").slice(0, -1);
/** Each line of `log` after `prefix(line)`, as a wrapper writes it. */
const wrapped = (log: string, prefix: (line: string, i: number) => string) =>
  lines(log)
    .map((l, i) => prefix(l, i) + l)
    .join("\n") + "\n";
/** A time for each line: the wrappers' times need not be klog's. */
const rfc3339 = (i: number) => `2026-05-01T09:46:${String(10 + i).padStart(2, "0")}.5Z`;

/** The events, where they are and their raw text aside: each line of an entry is a line. */
const read = (log: string) => {
  const { events, reader } = readTraceText(log, { year: 2026 });
  return { events, diagnostics: reader.diagnostics.filter((d) => d.level !== "info") };
};
const bare = (events: TraceEvent[]) => events.map(({ raw: _r, line: _l, seq: _s, ...e }) => e);
const done = (events: TraceEvent[]) => events.filter((e) => e.stage === "done");

describe("a klog multi-line value", () => {
  it("is read into its key's value: the entry reads as the line with the value quoted", () => {
    expect(ONE_LINE).not.toBe(LOG);
    const multi = read(LOG);
    const one = read(ONE_LINE);
    expect(multi.diagnostics).toEqual([]);
    expect(bare(multi.events)).toEqual(bare(one.events));
    expect(analysisRecord(multi.events)).toBe(analysisRecord(one.events));
    const requeued = done(multi.events).find((e) => e.outcome === "requeued");
    expect(requeued).toMatchObject({
      key: "default/example-foo",
      outcome: "requeued",
      error: ERROR,
      line: FIRST,
      // Its line of the file, as every klog event's raw: the replays read it back from there.
      raw: lines(LOG)[FIRST - 1],
    });
    // The next pass is its retry; the conflict is counted once, by its write and its error alike.
    expect(analysisRecord(multi.events)).toContain('"retry":1');
  });

  it("ends an unpatched log's pass too", () => {
    const unpatched = (log: string) =>
      lines(log)
        .filter((l) => !l.includes("STAGE/"))
        .join("\n") + "\n";
    const multi = read(unpatched(LOG));
    expect(bare(multi.events)).toEqual(bare(read(unpatched(ONE_LINE)).events));
    expect(done(multi.events).map((e) => e.outcome)).toEqual(["synced", "requeued", "synced"]);
  });

  it.each([
    ["kubectl logs --timestamps", (_: string, i: number) => `${rfc3339(i)} `],
    ["kubectl logs --prefix", () => "[pod/sample-controller-7d9f/sample-controller] "],
    ["a CRI log", (_: string, i: number) => `${rfc3339(i)} stderr F `],
    ["journald", () => "May 01 09:46:50 host sample-controller[1]: "],
  ])("is read in %s, a prefix on each of its lines", (_, prefix) => {
    const multi = read(wrapped(LOG, prefix));
    expect(multi.diagnostics).toEqual([]);
    const one = read(wrapped(ONE_LINE, prefix));
    expect(bare(multi.events)).toEqual(bare(one.events));
    expect(done(multi.events)[1]).toMatchObject({ outcome: "requeued", error: ERROR });
  });

  it("is read in a Docker json-file log, a record per line", () => {
    const docker = (log: string) =>
      lines(log)
        .map((l, i) => JSON.stringify({ log: `${l}\n`, stream: "stderr", time: rfc3339(i) }))
        .join("\n") + "\n";
    const multi = read(docker(LOG));
    expect(multi.diagnostics).toEqual([]);
    expect(bare(multi.events)).toEqual(bare(read(docker(ONE_LINE)).events));
  });

  it("reads the same on the page's row path, in any pieces", () => {
    const bytes = new TextEncoder().encode(LOG);
    const at = LOG.indexOf("\tplease");
    for (const cuts of [[], [at], [at - 1, at + 1, at + 70]]) {
      const r = expectSame(bytes, cuts);
      expect(r.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
      // Its success lines are rows there, not events; the entry is an event.
      expect(done(r.events).map((e) => [e.line, e.outcome])).toEqual([[FIRST, "requeued"]]);
    }
  });

  const ENTRY =
    'E0501 09:46:50.546684       1 controller.go:240] "Error syncing; requeuing for later retry" err=<';
  const AFTER =
    'I0501 09:46:50.558388       1 controller.go:232] "Successfully synced" objectName="default/example-foo"';

  it("reads two multi-line values of one line, and pairs after each", () => {
    const log = `${ENTRY}\n\ta\n\tb\n > other=<\n\tc\n > objectReference="default/x"\n${AFTER}\n`;
    const { events, diagnostics } = read(log);
    expect(diagnostics).toEqual([]);
    expect(events[0]).toMatchObject({ outcome: "requeued", key: "default/x", error: "a\nb" });
    expect(events[1]).toMatchObject({ outcome: "synced", line: 7 });
  });

  it("is read as far as it came, with a warning, when its ` >` line never comes", () => {
    const cut = `${ENTRY}\n\tgone\n${AFTER}\n`;
    expect(read(cut).diagnostics).toEqual([
      {
        line: 1,
        level: "warn",
        message:
          'a multi-line value (klog\'s key=<) without its closing " >" line (the line after it is none of its value): read with the 1 line of it that came',
      },
    ]);
    expect(read(cut).events.map((e) => [e.stage, e.line])).toEqual([
      ["note", 1],
      ["done", 3],
    ]);
    const end = read(`${ENTRY}\n\tgone\n`);
    expect(end.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("(the log ends first)"),
    ]);
    expect(end.events).toHaveLength(1);
  });

  it("leaves a line that ends in `=<` as it is when no value line follows", () => {
    const text = `${ENTRY}\n${AFTER}\n`;
    const { events, diagnostics } = read(text);
    expect(diagnostics).toEqual([]);
    expect(events.map((e) => [e.stage, e.line, e.raw])).toEqual([
      ["note", 1, ENTRY],
      ["done", 2, AFTER],
    ]);
  });
});
