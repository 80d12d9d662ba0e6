/**
 * Turns a stream of events into a stream of finished passes, for exporters that write a pass
 * once (a Chrome X slice, an OTLP span) as soon as it is complete.
 *
 * Invariants:
 * - Every event goes through the one incremental Analyzer, so passes, triggers and causes are
 *   exactly what the dashboard shows for the same trace.
 * - Each pass is handed out once, in the order its key's passes close; `rest()` hands out the
 *   passes still open at the end of the input (marked by their missing `end`).
 * - Memory is the Analyzer's (a small record per pass), never the events.
 */
import type { TraceEvent } from "../event.ts";
import type { Pass } from "../analysis/model.ts";
import { Analyzer, type AnalyzerOptions } from "../analysis/analyzer.ts";

export class PassStream {
  readonly analyzer: Analyzer;
  /** Per key: how many of its passes were handed out. */
  private readonly cursor = new Map<string, number>();

  constructor(opts: AnalyzerOptions = {}) {
    this.analyzer = new Analyzer(opts);
  }

  /** Analyzes `e`; returns the passes of `e.key` that are closed now and were not handed out. */
  push(e: TraceEvent): Pass[] {
    this.analyzer.push(e);
    if (e.key === "" || e.stage === "note") return [];
    return this.closed(e.key);
  }

  /** After the last event: everything not handed out yet, open passes included, key by key. */
  rest(): Pass[] {
    const out: Pass[] = [];
    for (const key of this.analyzer.keys()) {
      const passes = this.analyzer.passes(key);
      for (let i = this.cursor.get(key) ?? 0; i < passes.length; i++) out.push(passes[i]);
      this.cursor.set(key, passes.length);
    }
    return out;
  }

  private closed(key: string): Pass[] {
    const a = this.analyzer;
    let i = this.cursor.get(key) ?? 0;
    // Asked after every event: count and look before building any pass.
    if (i >= a.passCount(key) || a.passEnd(key, i) === undefined) return [];
    const passes = a.passes(key);
    const out: Pass[] = [];
    while (i < passes.length && passes[i].end !== undefined) out.push(passes[i++]);
    this.cursor.set(key, i);
    return out;
  }
}
