/**
 * The generator's traces read back through the real readers and Analyzer with the counts it
 * claims: every event, every pass, the self-triggered, conflict and retry passes — in both formats.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { Analyzer, TraceReader, type TraceEvent } from "../../packages/trace/src/index.ts";
import { emptyCounts, scenario } from "./scenario.ts";
import { writeTrace, type GenFormat } from "./write.ts";

async function generate(format: GenFormat, events: number) {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (c: Buffer) => chunks.push(c));
  const r = await writeTrace(sink, { events, foos: 40 }, format);
  sink.end();
  return { ...r, data: Buffer.concat(chunks) };
}

function readBack(data: Buffer): { events: TraceEvent[]; analyzer: Analyzer } {
  const reader = new TraceReader({ year: 2026 });
  const events: TraceEvent[] = [];
  // Odd chunk sizes: lines split across pushes must not matter.
  for (let i = 0; i < data.length; i += 4093)
    events.push(...reader.push(data.subarray(i, i + 4093)));
  events.push(...reader.end());
  const analyzer = new Analyzer();
  for (const e of events) analyzer.push(e);
  return { events, analyzer };
}

describe("scenario", () => {
  it("produces exactly the asked number of events, seq 1…N, time never going back", () => {
    const counts = emptyCounts();
    let seq = 0;
    let ts = 0;
    for (const e of scenario({ events: 5000, foos: 30 }, counts)) {
      expect(e.seq).toBe(++seq);
      expect(e.ts).toBeGreaterThan(ts);
      ts = e.ts;
    }
    expect(seq).toBe(5000);
    expect(counts.self).toBeGreaterThan(0);
    expect(counts.conflicts).toBeGreaterThan(0);
  });

  it("is deterministic for a seed and differs across seeds", () => {
    const take = (seed: number) =>
      [...scenario({ events: 300, seed })].map((e) => JSON.stringify(e)).join("");
    expect(take(1)).toBe(take(1));
    expect(take(1)).not.toBe(take(2));
  });
});

describe.each(["jsonl", "klog"] as const)("%s output", (format) => {
  it("reads back as the events, passes and causes generated", async () => {
    const g = await generate(format, 6000);
    const { events, analyzer } = readBack(g.data);
    expect(events.filter((e) => e.stage !== "note")).toHaveLength(6000);
    expect(g.bytes).toBe(g.data.length);
    const keys = analyzer.keys();
    expect(keys).toHaveLength(40);
    let passes = 0;
    let self = 0;
    let conflicts = 0;
    for (const k of keys) {
      const s = analyzer.summary(k)!;
      passes += s.passes;
      self += s.selfTriggered;
      conflicts += s.conflicts;
    }
    expect(passes).toBe(g.counts.passes);
    expect(conflicts).toBe(g.counts.conflicts);
    expect(self).toBe(g.counts.self);
    const retryEnqueues = events.filter((e) => e.stage === "enqueue" && e.cause === "retry").length;
    expect(retryEnqueues).toBe(g.counts.retries);
  });
});
