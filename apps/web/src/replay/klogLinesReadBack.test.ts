/**
 * The replay reads a klog log's lines back from the file (LineFile) instead of keeping
 * them: that is right only if every klog event's `raw` is its whole line, numbered as `line`, and
 * the marks the worker takes while reading say where lines start. Checked here on the klog
 * fixtures and the bad-input corpus, read in pieces of several sizes.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LineMarks, type TraceEvent, RowEncoder, createRowReader } from "@loopscope/trace";
import { badInputCorpus } from "../../../../packages/trace/src/robustness/corpus.ts";
import { fileLines } from "../store/logLines.ts";

const FIXTURES = fileURLToPath(
  new URL("../../../../packages/trace/fixtures/stage/", import.meta.url),
);

/** Reads `bytes` in pieces of `piece` bytes (0: as the worker does): the events and the lines. */
async function readBack(bytes: Uint8Array, piece: number) {
  const reader = createRowReader(new RowEncoder());
  const marks = new LineMarks();
  const lines = fileLines(new Blob([bytes.slice()]));
  const events: TraceEvent[] = [];
  const sink = { event: (e: TraceEvent) => events.push(e), diagnostic: () => undefined };
  // piece 0: as the worker and the server read, through `feed` (pieces of MARK_EVERY).
  if (piece === 0) marks.feed(bytes, 0, (p) => reader.push(p, sink), reader.lines);
  for (let at = 0; piece > 0 && at < bytes.length; at += piece) {
    const p = bytes.subarray(at, at + piece);
    reader.push(p, sink);
    marks.note(p, at, reader.lines());
    const m = marks.take();
    if (m) lines.addMarks(m);
  }
  const m = marks.take();
  if (m) lines.addMarks(m);
  reader.end(sink);
  return { events, format: reader.format(), text: await lines.read(events.map((e) => e.line!)) };
}

const inputs: [string, Uint8Array][] = [
  ...readdirSync(FIXTURES)
    .filter((f) => f.endsWith(".log"))
    .map((f): [string, Uint8Array] => [f, readFileSync(FIXTURES + f)]),
  ...badInputCorpus({ longLine: 200_000 })
    .filter((c) => c.format === "klog")
    .map((c): [string, Uint8Array] => [`corpus: ${c.name}`, c.bytes]),
];

describe("a klog log's lines read back through the marks", () => {
  it.each(inputs)("%s: every event's raw is its line", async (_name, bytes) => {
    for (const piece of [7, 300, 64 * 1024, 0]) {
      const { events, format, text } = await readBack(bytes, piece);
      if (format !== "klog") continue;
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) {
        expect(e.line, `${e.stage} #${e.seq}`).toBeDefined();
        expect(text.get(e.line!), `line ${e.line} (pieces of ${piece})`).toBe(e.raw);
      }
    }
  });

  it("with CRLF line ends, a byte-order mark and non-ASCII text", async () => {
    const log = readFileSync(FIXTURES + "create-canonical.log", "utf8")
      .replace(/"Starting Foo controller"/, '"Démarrage — контроллер"')
      .split("\n")
      .join("\r\n");
    const bytes = new TextEncoder().encode("\ufeff" + log);
    for (const piece of [5, 1000]) {
      const { events, text } = await readBack(bytes, piece);
      expect(events.some((e) => e.raw?.includes("контроллер"))).toBe(true);
      for (const e of events) expect(text.get(e.line!)).toBe(e.raw);
    }
  });
});
