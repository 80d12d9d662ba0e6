/**
 * The bad-input corpus through the reader and the Analyzer, in process: no throw, every good line
 * kept, a numbered diagnostic for every bad line, diagnostics capped, Object.prototype untouched.
 * Each case is read in one piece and again in small odd-sized chunks (line and UTF-8 boundaries
 * falling inside chunks).
 */
import { describe, expect, it } from "vitest";
import { TraceReader } from "../reader/trace-reader.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import type { TraceEvent } from "../event.ts";
import { badInputCorpus, type CorpusCase } from "./corpus.ts";
import { checkCase } from "./check-case.ts";

const corpus = badInputCorpus();

function read(c: CorpusCase, chunk: number) {
  const reader = new TraceReader({ year: 2026 });
  const analyzer = new Analyzer();
  const events: TraceEvent[] = [];
  const take = (batch: TraceEvent[]) => {
    for (const e of batch) {
      analyzer.push(e);
      events.push(e);
    }
  };
  for (let i = 0; i < c.bytes.length; i += chunk) take(reader.push(c.bytes.subarray(i, i + chunk)));
  take(reader.end());
  analyzer.snapshot();
  return { reader, events };
}

describe("bad-input corpus through the reader", () => {
  it("has at least 50 cases of at least 10 kinds", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50);
    expect(new Set(corpus.map((c) => c.kind)).size).toBeGreaterThanOrEqual(10);
  });

  const outcomes: { name: string; good: number; bad: number; diagnostics: number }[] = [];
  for (const c of corpus) {
    it(`${c.kind}/${c.name}`, () => {
      for (const chunk of c.bytes.length > 1 << 20 ? [1 << 20, 65_537] : [1 << 20, 7]) {
        const { reader, events } = read(c, chunk);
        expect(reader.format).toBe(c.format);
        const problems = checkCase(c, {
          keys: events.map((e) => e.key),
          diagnostics: reader.diagnostics,
          diagnosticCount: reader.diagnosticCount,
          lines: reader.lines,
        });
        expect(problems, `chunk ${chunk}`).toEqual([]);
        expect(reader.diagnostics.length).toBeLessThanOrEqual(1000);
        const seqs = events.map((e) => e.seq);
        for (let i = 1; i < seqs.length; i++) {
          if (!(Number.isSafeInteger(seqs[i]) && seqs[i] > seqs[i - 1]))
            expect.fail(
              `seq ${seqs[i]} after ${seqs[i - 1]} (event ${i}): not strictly increasing`,
            );
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        if (chunk === 1 << 20)
          outcomes.push({
            name: c.name,
            good: c.good.length,
            bad: c.bad.length,
            diagnostics: reader.diagnosticCount,
          });
      }
    });
  }

  it("summary", () => {
    const good = outcomes.reduce((n, o) => n + o.good, 0);
    const bad = outcomes.reduce((n, o) => n + o.bad, 0);
    console.log(
      `bad-input corpus: ${outcomes.length} cases, ${good} good lines kept, ${bad} bad lines diagnosed`,
    );
  });
});
