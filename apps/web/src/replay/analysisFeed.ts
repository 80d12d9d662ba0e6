/**
 * The replay worker's side of the analysis: packages/trace's Analyzer fed event by event, and
 * `take()` cutting what changed into an `AnalysisUpdate` for the page (see store/remoteAnalysis).
 *
 * Why only a tail of passes is resent: a key's passes change only on that key's events, and then
 * only the last few passes (a write is settled as changing or no-op at most two
 * passes later; see the Analyzer's `close`). Passes before that are final once sent.
 */
import { Analyzer, type Finding, type Pass, type TraceEvent } from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";

/** Passes resent before the newest sent one (the open pass and two before it may change). */
const MUTABLE_TAIL = 4;
/**
 * While a big file loads nearly every key has events in every batch: summaries (per key) and
 * findings (a list over all keys) are resent at most this often, and always with the last batch.
 */
const SUMMARIES_MS = 500;
const FINDINGS_MS = 2000;

export class AnalysisFeed {
  private readonly analyzer = new Analyzer();
  private readonly touched = new Set<string>();
  private readonly sent = new Map<string, number>();
  /** What each pass looked like when last sent: most tail passes have not changed since. */
  private readonly sentAs = new WeakMap<Pass, string>();
  private readonly unsummarized = new Set<string>();
  private findingsAt = -Infinity;
  private summariesAt = -Infinity;

  push(e: TraceEvent): void {
    this.analyzer.push(e);
    if (e.key) this.touched.add(e.key);
  }

  /** What changed since the last take; `final` carries every pending summary and the findings. */
  take(now: number, final = false): AnalysisUpdate {
    const u: AnalysisUpdate = { passes: [], summaries: [] };
    for (const key of this.touched) {
      const passes = this.analyzer.passes(key);
      const from = Math.max(0, (this.sent.get(key) ?? 0) - MUTABLE_TAIL);
      for (let i = from; i < passes.length; i++) {
        const p = passes[i];
        const f = fingerprint(p);
        if (this.sentAs.get(p) === f) continue;
        this.sentAs.set(p, f);
        u.passes.push(p);
      }
      this.sent.set(key, passes.length);
      this.unsummarized.add(key);
    }
    this.touched.clear();
    if (final || now - this.summariesAt >= SUMMARIES_MS) {
      this.summariesAt = now;
      for (const key of this.unsummarized) {
        const s = this.analyzer.summary(key);
        if (s) u.summaries.push(s);
      }
      this.unsummarized.clear();
    }
    if (final || now - this.findingsAt >= FINDINGS_MS) {
      this.findingsAt = now;
      u.findings = this.analyzer.findings() satisfies Finding[];
    }
    return u;
  }
}

/**
 * Everything about a pass the Analyzer may change after opening it (lists only grow, so their
 * lengths stand for their contents).
 */
function fingerprint(p: Pass): string {
  return [
    p.start,
    p.end,
    p.dequeueSeq,
    p.endSeq,
    p.readSeq,
    p.worker,
    p.cause,
    p.inferred,
    p.triggers.length,
    p.writeSeqs.length,
    p.changingWrites,
    p.noopWrites,
    p.conflicts,
    p.changedFields.length,
    p.outcome,
  ].join("|");
}
