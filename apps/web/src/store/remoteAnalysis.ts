/**
 * The read side of an analysis that runs elsewhere (the replay's analysis worker runs
 * packages/trace's Analyzer on the reader worker's batches). It is kept current by
 * `AnalysisUpdate`s: passes that are new or changed, summaries of the keys that had events, and
 * now and then the findings.
 *
 * Invariants: an update carries every pass the Analyzer opened or changed since the update before
 * it, so applying updates in order leaves exactly the Analyzer's passes; passes are read-only here
 * too. The analysis may lag the store by a batch or so (it is computed from the store's batches).
 */
import type { Finding, KeySummary, Pass } from "@loopscope/trace";
import type { AnalysisPort } from "./analysisPort.ts";
import { renderExcerpt } from "./excerptPort.ts";
import type { TraceStore } from "./traceStore.ts";
import { PassDecoder, type PassBatch } from "./passColumns.ts";

export interface AnalysisUpdate {
  /** Passes opened or changed, as columns (see passColumns.ts). */
  passes: PassBatch;
  summaries: KeySummary[];
  /** The whole list, when it may have changed since the last update that carried it. */
  findings?: Finding[];
}

const EMPTY: readonly never[] = Object.freeze([]);
const NO_PASSES: readonly Pass[] = EMPTY;

export class RemoteAnalysis implements AnalysisPort {
  private readonly passes = new Map<string, Pass[]>();
  private readonly summaries = new Map<string, KeySummary>();
  private findingList: readonly Finding[] = EMPTY;
  private readonly decoder = new PassDecoder();

  constructor(private readonly store: TraceStore) {}

  apply(u: AnalysisUpdate): void {
    for (const p of this.decoder.decode(u.passes)) {
      let list = this.passes.get(p.key);
      if (!list) this.passes.set(p.key, (list = []));
      list[p.index] = p;
    }
    for (const s of u.summaries) this.summaries.set(s.key, s);
    if (u.findings) this.findingList = u.findings;
  }

  passesOf(key: string): readonly Pass[] {
    return this.passes.get(key) ?? NO_PASSES;
  }

  summaryOf(key: string): KeySummary | undefined {
    return this.summaries.get(key);
  }

  findings(): readonly Finding[] {
    return this.findingList;
  }

  excerpt(key: string) {
    return renderExcerpt(this.store, key);
  }
}
