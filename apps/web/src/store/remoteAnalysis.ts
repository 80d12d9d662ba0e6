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
import { PassDecoder, type PassBatch } from "./passColumns.ts";
import { SummaryTable, type SummaryBatch } from "./summaryColumns.ts";

export interface AnalysisUpdate {
  /** Passes opened or changed, as columns (see passColumns.ts). */
  passes: PassBatch;
  /** The latest summaries of keys that had events (see summaryColumns.ts). */
  summaries: SummaryBatch;
  /** The whole list, when it may have changed since the last update that carried it. */
  findings?: Finding[];
}

const EMPTY: readonly never[] = Object.freeze([]);
const NO_PASSES: readonly Pass[] = EMPTY;

/** A pass's place in the decoder's batches: batch × ROWS + row. */
const ROWS = 2 ** 24;

export class RemoteAnalysis implements AnalysisPort {
  /** Per key, per pass index: where its latest version is. */
  private readonly refs = new Map<string, number[]>();
  /** Per key, its passes as built for a view; dropped when an update touches the key. */
  private readonly built = new Map<string, Pass[]>();
  private readonly summaries = new SummaryTable();
  private findingList: readonly Finding[] = EMPTY;
  private readonly decoder = new PassDecoder();

  apply(u: AnalysisUpdate): void {
    if (u.passes.length >= ROWS)
      throw new Error(`RemoteAnalysis: ${u.passes.length} passes in one update`);
    const batch = this.decoder.add(u.passes);
    const index = u.passes.index;
    for (let i = 0; i < u.passes.length; i++) {
      const key = this.decoder.key(batch, i);
      let list = this.refs.get(key);
      if (!list) this.refs.set(key, (list = []));
      list[index[i]] = batch * ROWS + i;
      this.built.delete(key);
    }
    this.summaries.add(u.summaries);
    if (u.findings) this.findingList = u.findings;
  }

  /** Built on first use after the key last changed (a load's passes are mostly never looked at). */
  passesOf(key: string): readonly Pass[] {
    let passes = this.built.get(key);
    if (passes) return passes;
    const refs = this.refs.get(key);
    if (!refs) return NO_PASSES;
    passes = refs.map((r) => this.decoder.pass(Math.floor(r / ROWS), r % ROWS));
    this.built.set(key, passes);
    return passes;
  }

  lastPassOf(key: string): Pass | undefined {
    const built = this.built.get(key);
    if (built) return built.at(-1);
    const r = this.refs.get(key)?.at(-1);
    return r === undefined ? undefined : this.decoder.pass(Math.floor(r / ROWS), r % ROWS);
  }

  summaryOf(key: string): KeySummary | undefined {
    return this.summaries.get(key);
  }

  findings(): readonly Finding[] {
    return this.findingList;
  }
}
