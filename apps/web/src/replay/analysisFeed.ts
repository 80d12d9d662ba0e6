/**
 * The replay analysis worker's side of the analysis: packages/trace's Analyzer fed event by
 * event, and `take()` cutting what changed into an `AnalysisUpdate` for the page (see
 * store/remoteAnalysis): the passes the Analyzer reports opened or changed since the last take,
 * the summaries of the keys that had events, and the findings.
 */
import {
  Analyzer,
  type Finding,
  type KeySummary,
  type TraceEvent,
  RowDecoder,
  type ColumnBatch,
} from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";
import { PassEncoder } from "../store/passColumns.ts";
import { encodeSummaries, NO_SUMMARIES } from "../store/summaryColumns.ts";

/**
 * While a big file loads nearly every key has events in every batch: summaries (per key) and
 * findings (a list over all keys) are resent at most this often, and always with the last batch.
 */
const SUMMARIES_MS = 1000;
const FINDINGS_MS = 2000;

export class AnalysisFeed {
  private readonly analyzer = new Analyzer({ trackChanges: true });
  private readonly passes = new PassEncoder();
  private readonly rows = new RowDecoder();
  private readonly sink = (e: TraceEvent) => this.push(e);
  private readonly unsummarized = new Set<string>();
  private findingsAt = -Infinity;
  private summariesAt = -Infinity;

  /**
   * A batch of the reader's rows, in order. Its events are rebuilt in reused objects (see
   * RowDecoder.visit): the Analyzer keeps values from an event, never the event.
   */
  pushBatch(b: ColumnBatch): void {
    this.rows.visit(b, this.sink);
  }

  push(e: TraceEvent): void {
    this.analyzer.push(e);
    if (e.key) this.unsummarized.add(e.key);
  }

  /** What changed since the last take; `final` carries every pending summary and the findings. */
  take(now: number, final = false): AnalysisUpdate {
    const u: AnalysisUpdate = {
      passes: this.passes.encode(this.analyzer.takeChangedPasses()),
      summaries: NO_SUMMARIES,
    };
    if (final || now - this.summariesAt >= SUMMARIES_MS) {
      this.summariesAt = now;
      const list: KeySummary[] = [];
      for (const key of this.unsummarized) {
        const s = this.analyzer.summary(key);
        if (s) list.push(s);
      }
      this.unsummarized.clear();
      u.summaries = encodeSummaries(list);
    }
    if (final || now - this.findingsAt >= FINDINGS_MS) {
      this.findingsAt = now;
      u.findings = this.analyzer.findings() satisfies Finding[];
    }
    return u;
  }
}
