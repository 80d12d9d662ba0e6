/**
 * The Analyzer's whole output on generated traces, against results recorded from it: every
 * key's summary and passes, the findings, each event's pass index, and what `takeChangedPasses`
 * hands a mirror batch after batch. The other tests state the rules on small logs; this one
 * catches any change at all on traces that reach every branch (see testing/random-trace), so the
 * Analyzer can be made faster without changing what it says. A deliberate change of the rules
 * re-records the files: `pnpm exec vitest run packages/trace/src/analysis/analyzer-golden -u`,
 * and the diff shows what the change did.
 */
import { describe, expect, it } from "vitest";
import { Analyzer, type AnalyzerOptions } from "./analyzer.ts";
import { randomTrace } from "../testing/random-trace.ts";
import type { TraceEvent } from "../event.ts";
import type { Pass } from "./model.ts";
import { sortedJson as json } from "../testing/golden.ts";

/** The analysis as text, one record a line, so a difference shows where it is. */
function record(events: TraceEvent[], opts: AnalyzerOptions): string {
  const a = new Analyzer(opts);
  const mirror = new Analyzer({ ...opts, trackChanges: true });
  const indexes: number[] = [];
  const takes: string[] = [];
  /** Copies of the passes as taken: what a store that holds only what it was handed has. */
  const held = new Map<string, Pass>();
  const take = (): void => {
    const changed = mirror.takeChangedPasses();
    for (const p of changed) held.set(`${p.key}#${p.index}`, structuredClone(p));
    if (changed.length > 0) takes.push(changed.map((p) => `${p.key}#${p.index}`).join(" "));
  };
  events.forEach((e, i) => {
    indexes.push(a.push(e));
    expect(mirror.push(e)).toBe(indexes[i]);
    if (i % 37 === 36) take();
  });
  take();
  const out: string[] = [];
  const snap = a.snapshot();
  expect(mirror.snapshot()).toEqual(snap);
  out.push(`events ${snap.events} ${json(snap.byStage)}`);
  out.push(`pass index per event: ${indexes.join(",")}`);
  for (const f of snap.findings) out.push(`finding ${json(f)}`);
  for (const key of a.keys()) {
    expect(Object.keys(snap.keys)).toContain(key);
    out.push(`key ${json(snap.keys[key])}`);
    expect(a.summary(key)).toEqual(snap.keys[key]);
    const passes: readonly Pass[] = a.passes(key);
    expect(mirror.passes(key)).toEqual(passes);
    for (const p of passes) expect(held.get(`${key}#${p.index}`)).toEqual(p);
    for (const p of passes) out.push(`  pass ${json(p)}`);
  }
  for (const t of takes) out.push(`take ${t}`);
  return out.join("\n") + "\n";
}

describe("the Analyzer on generated traces gives the recorded results", () => {
  it.each([1, 2])("seed %i", async (seed) => {
    const events = randomTrace(seed, 8, 20);
    await expect(record(events, {})).toMatchFileSnapshot(`__golden__/seed-${seed}.txt`);
  });

  it("with a short echo window and a low hot-loop threshold", async () => {
    const events = randomTrace(3, 8, 20);
    await expect(record(events, { echoWindowMs: 20, hotLoopThreshold: 3 })).toMatchFileSnapshot(
      `__golden__/seed-3-short-window.txt`,
    );
  });
});
