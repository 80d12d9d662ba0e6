/**
 * Every fixture, the sample traces and the bad-input corpus, read from text and from bytes in odd
 * pieces, against recorded results: the events, the diagnostics and the Analyzer's whole output.
 * The reader may be rebuilt at will underneath; what it makes of these inputs may change only on
 * purpose, and then the diff of the recorded files shows what changed
 * (`pnpm exec vitest run packages/trace/src/reader/reader-golden -u` re-records them).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readTraceText } from "./read-trace.ts";
import { TraceReader } from "./trace-reader.ts";
import type { TraceEvent } from "../event.ts";
import { FIXTURES } from "../testing/fixtures.ts";
import { analysisRecord, readRecord } from "../testing/golden.ts";
import { badInputCorpus } from "../robustness/corpus.ts";

const PUBLIC = new URL("../../../../public/traces/", import.meta.url);
const NOW = () => new Date(Date.UTC(2026, 11, 5));

/** name → bytes of every input. */
function inputs(): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const dir of ["klog", "stage"]) {
    for (const f of readdirSync(FIXTURES + dir)
      .filter((f) => f.endsWith(".log"))
      .sort())
      out.push([`${dir}-${f}`, readFileSync(FIXTURES + dir + "/" + f)]);
  }
  for (const f of readdirSync(PUBLIC).sort()) {
    if (f.endsWith(".jsonl") || f.endsWith(".klog.log"))
      out.push([`public-${f}`, readFileSync(new URL(f, PUBLIC))]);
  }
  for (const c of badInputCorpus()) out.push([`corpus-${c.kind}-${c.name}`, c.bytes]);
  return out;
}

function byPieces(bytes: Uint8Array, size: number) {
  const reader = new TraceReader({ now: NOW });
  const events: TraceEvent[] = [];
  for (let i = 0; i < bytes.length; i += size)
    events.push(...reader.push(bytes.subarray(i, i + size)));
  events.push(...reader.end());
  return { events, reader };
}

function record(events: TraceEvent[], reader: TraceReader): string {
  return (
    readRecord({ ...reader, format: reader.format, lines: reader.lines, events }) +
    "--- analysis\n" +
    analysisRecord(events)
  );
}

describe("what the reader makes of every fixture", () => {
  for (const [name, bytes] of inputs()) {
    it(name, async () => {
      let high = 0;
      for (let i = 0; i < bytes.length; i++) high |= bytes[i];
      const text = new TextDecoder().decode(bytes);
      const whole = readTraceText(text, { now: NOW });
      const got = record(whole.events, whole.reader);
      await expect(got).toMatchFileSnapshot(`__golden__/${name}.txt`);
      for (const size of bytes.length > 65536 ? [65536] : [7, 4096]) {
        const pieces = byPieces(bytes, size);
        expect(record(pieces.events, pieces.reader)).toBe(got);
      }
      // A klog event's raw is its line of the file.
      if (whole.reader.format === "klog" && high < 0x80) {
        const lines = text.replace(/^\uFEFF/, "").split("\n");
        for (const e of whole.events)
          if (e.line !== undefined && e.raw !== undefined)
            expect(e.raw).toBe(lines[e.line - 1].replace(/\r$/, ""));
      }
    });
  }
});
