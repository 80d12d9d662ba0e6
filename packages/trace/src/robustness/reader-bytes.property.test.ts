/**
 * Properties of the reader on arbitrary bytes and on random mixes of the corpus's bad lines with
 * good ones, cut into random chunks: it never throws, seqs are safe integers that strictly
 * increase, every diagnostic points at a line that exists, and every good line is kept.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TraceReader } from "../reader/trace-reader.ts";
import type { TraceEvent } from "../event.ts";
import { badInputCorpus } from "./corpus.ts";

function read(chunks: Uint8Array[]) {
  const reader = new TraceReader({ year: 2026 });
  const events: TraceEvent[] = [];
  for (const c of chunks) events.push(...reader.push(c));
  events.push(...reader.end());
  return { reader, events };
}

function cut(bytes: Uint8Array, points: number[]): Uint8Array[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...at, bytes.length]) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  return out;
}

function invariants(reader: TraceReader, events: TraceEvent[]) {
  for (let i = 0; i < events.length; i++) {
    expect(Number.isSafeInteger(events[i].seq)).toBe(true);
    if (i > 0) expect(events[i].seq).toBeGreaterThan(events[i - 1].seq);
  }
  for (const d of reader.diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(Math.max(reader.lines, 1));
  }
}

describe("reader on arbitrary input", () => {
  it("arbitrary bytes: never throws, invariants hold", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (bytes, points) => {
          const { reader, events } = read(cut(bytes, points));
          invariants(reader, events);
        },
      ),
      { numRuns: 500 },
    );
  });

  // Bad lines from the small corpus cases, shuffled among good ones.
  const badLines = badInputCorpus({ longLine: 1000 })
    .filter((c) => c.format === "jsonl" && c.bytes.length < 20_000)
    .flatMap((c) => {
      const lines: Uint8Array[] = [];
      let start = 0;
      for (let i = 0; i < c.bytes.length; i++)
        if (c.bytes[i] === 10) {
          lines.push(c.bytes.subarray(start, i));
          start = i + 1;
        }
      return c.bad.map((n) => lines[n - 1]).filter((l): l is Uint8Array => l !== undefined);
    });
  const enc = new TextEncoder();

  it("good JSONL records among the corpus's bad lines, any chunking: every good record kept", () => {
    expect(badLines.length).toBeGreaterThan(40);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(-1), fc.nat(badLines.length - 1)), { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (picks, points) => {
          const parts: Uint8Array[] = [enc.encode('{"loopscope":"trace","version":1}\n')];
          const goodKeys: string[] = [];
          picks.forEach((p, i) => {
            if (p < 0) {
              const key = `good/l${i}`;
              goodKeys.push(key);
              parts.push(enc.encode(JSON.stringify({ ts: i, key, stage: "dequeue" }) + "\n"));
            } else parts.push(badLines[p], enc.encode("\n"));
          });
          const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
          let off = 0;
          for (const p of parts) {
            all.set(p, off);
            off += p.length;
          }
          const { reader, events } = read(cut(all, points));
          invariants(reader, events);
          const keys = new Set(events.map((e) => e.key));
          for (const k of goodKeys) expect(keys).toContain(k);
        },
      ),
      { numRuns: 300 },
    );
  });
});
