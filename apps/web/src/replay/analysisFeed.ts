/**
 * The replay worker's side of the analysis: packages/trace's Analyzer fed event by event, and
 * `take()` cutting what changed into an `AnalysisUpdate` for the page (see store/remoteAnalysis).
 *
 * Why only a tail of passes is resent: a key's passes change only on that key's events, and then
 * only the last few passes (a write is settled as changing or no-op at most two
 * passes later; see the Analyzer's `close`). Passes before that are final once sent.
 */
import { Analyzer, type Finding, type TraceEvent } from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";

/** Passes resent before the newest sent one (the open pass and two before it may change). */
const MUTABLE_TAIL = 4;
/** Findings are a list over all keys: resend them at most this often while loading. */
const FINDINGS_MS = 1000;

export class AnalysisFeed {
  private readonly analyzer = new Analyzer();
  private readonly touched = new Set<string>();
  private readonly sent = new Map<string, number>();
  private findingsAt = -Infinity;

  push(e: TraceEvent): void {
    this.analyzer.push(e);
    if (e.key) this.touched.add(e.key);
  }

  /** What changed since the last take; `final` always carries the findings. */
  take(now: number, final = false): AnalysisUpdate {
    const u: AnalysisUpdate = { passes: [], summaries: [] };
    for (const key of this.touched) {
      const passes = this.analyzer.passes(key);
      const from = Math.max(0, (this.sent.get(key) ?? 0) - MUTABLE_TAIL);
      for (let i = from; i < passes.length; i++) u.passes.push(passes[i]);
      this.sent.set(key, passes.length);
      const s = this.analyzer.summary(key);
      if (s) u.summaries.push(s);
    }
    this.touched.clear();
    if (final || now - this.findingsAt >= FINDINGS_MS) {
      this.findingsAt = now;
      u.findings = this.analyzer.findings() satisfies Finding[];
    }
    return u;
  }
}
