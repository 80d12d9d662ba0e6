/**
 * A klog log with every line written twice (`tee -a` into klog's --log_file): each repeat is
 * skipped, with one warning, on the byte path and the text path alike; a line that only looks the
 * same (no klog header, as a multi-line value's) is kept.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { fixture } from "../testing/fixtures.ts";
import { chunked, fast } from "../testing/reader-paths.ts";
import { RowDecoder } from "../index.ts";
import type { TraceEvent } from "../event.ts";

const LOG = readFileSync(
  new URL("../../../../public/traces/create-foo.klog.log", import.meta.url),
  "utf8",
);
const twice = (log: string) =>
  log
    .split("\n")
    .slice(0, -1)
    .map((l) => `${l}\n${l}\n`)
    .join("");
const bare = (events: TraceEvent[]) => events.map(({ raw: _r, line: _l, seq: _s, ...e }) => e);

describe("a klog log with each line written twice", () => {
  const lineCount = LOG.split("\n").length - 1;
  const warning = {
    line: 2,
    level: "warn",
    message: `${lineCount} klog lines the same as the line before, byte for byte (a log written twice, as \`tee -a\` into klog's --log_file makes?): skipped, from this line on`,
  };

  it("reads as the log written once, with one warning", () => {
    const once = readTraceText(LOG, { year: 2026 });
    const doubled = readTraceText(twice(LOG), { year: 2026 });
    expect(bare(doubled.events)).toEqual(bare(once.events));
    expect(doubled.reader.diagnostics).toEqual([...once.reader.diagnostics, warning]);
  });

  it("reads as the log written once in the page's reader (bytes), in any chunking", () => {
    const once = fast(chunked(new TextEncoder().encode(LOG), []));
    const doubled = fast(chunked(new TextEncoder().encode(twice(LOG)), [4093, 8191]));
    expect(bare(new RowDecoder().decode(doubled.batch))).toEqual(
      bare(new RowDecoder().decode(once.batch)),
    );
    expect(doubled.diagnostics).toEqual([...once.diagnostics, warning]);
  });

  it("keeps a line without a klog header that is the same as the one before", () => {
    // A multi-line value whose two lines are the same: both are its.
    const log = fixture("stage/conflict-multiline-err.log").replace(
      /err=<\n\t(.*)\n\t(.*)\n > /,
      (_, a: string) => `err=<\n\t${a}\n\t${a}\n > `,
    );
    const { events, reader } = readTraceText(log, { year: 2026 });
    const err = events.find((e) => e.line === 23);
    const first =
      'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": the object has been modified;';
    expect(err).toMatchObject({ stage: "done", error: `${first}\n${first}` });
    expect(
      reader.diagnostics.filter((d) => d.message.includes("the same as the line before")),
    ).toEqual([]);
  });
});
