/**
 * The replay worker's reader on the inputs of packages/trace's reader golden test: every fixture,
 * the sample traces and the bad-input corpus. Its batches, turned back into events and analysed,
 * must give exactly the records recorded there from packages/trace's own reader — the page and the
 * CLI say the same of every file.
 */
import { RowDecoder } from "../index.ts";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { analysisRecord, readRecord } from "../testing/golden.ts";
import { badInputCorpus } from "../robustness/corpus.ts";
import { chunked, fast } from "../testing/reader-paths.ts";

const TRACE = fileURLToPath(new URL("../../../../packages/trace/", import.meta.url));
const PUBLIC = fileURLToPath(new URL("../../../../public/traces/", import.meta.url));
const GOLDEN = TRACE + "src/reader/__golden__/";

function inputs(): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const dir of ["klog", "stage"]) {
    for (const f of readdirSync(TRACE + "fixtures/" + dir)
      .filter((f) => f.endsWith(".log"))
      .sort())
      out.push([`${dir}-${f}`, readFileSync(TRACE + "fixtures/" + dir + "/" + f)]);
  }
  for (const f of readdirSync(PUBLIC).sort()) {
    if (f.endsWith(".jsonl") || f.endsWith(".klog.log"))
      out.push([`public-${f}`, readFileSync(PUBLIC + f)]);
  }
  for (const c of badInputCorpus()) out.push([`corpus-${c.kind}-${c.name}`, c.bytes]);
  return out;
}

describe("the worker's reader gives the recorded results", () => {
  // The date the golden records were read with (a klog line has no year: the reader takes now's).
  beforeAll(() => vi.useFakeTimers({ now: Date.UTC(2026, 11, 5), toFake: ["Date"] }));
  afterAll(() => vi.useRealTimers());
  for (const [name, bytes] of inputs()) {
    it(name, () => {
      const want = readFileSync(GOLDEN + name + ".txt", "utf8");
      const read = fast(chunked(bytes, [4093, 8191, 65536]));
      const events = new RowDecoder().decode(read.batch);
      const got =
        readRecord({
          format: read.format === "empty" ? undefined : read.format,
          lines: read.lines,
          events,
          diagnostics: read.diagnostics,
          diagnosticCount: read.diagnosticCount,
        }) +
        "--- analysis\n" +
        analysisRecord(events);
      expect(got).toBe(want);
    });
  }
});
