/**
 * The one seam between the web app and packages/trace's analysis. Everything the views know
 * about passes, causes, summaries and findings comes through here, so the browser
 * shows exactly what the CLI prints (same Analyzer, same rules).
 */
import {
  Analyzer,
  type Finding,
  type KeySummary,
  type Pass,
  type TraceEvent,
} from "@loopscope/trace";

/** The read side every view uses; see also store/remoteAnalysis.ts (analysis in the worker). */
export interface AnalysisPort {
  passesOf(key: string): readonly Pass[];
  /** The key's latest pass, without building the rest (the objects table asks for every row). */
  lastPassOf(key: string): Pass | undefined;
  summaryOf(key: string): KeySummary | undefined;
  findings(): readonly Finding[];
}

/** The Analyzer on this thread (live mode: batches are small and arrive over time). */
export interface LocalAnalysis extends AnalysisPort {
  push(events: readonly TraceEvent[]): void;
}

export function createAnalysis(): LocalAnalysis {
  const analyzer = new Analyzer();
  return {
    push(events) {
      for (const e of events) analyzer.push(e);
    },
    passesOf: (key) => analyzer.passes(key),
    lastPassOf: (key) => analyzer.passes(key).at(-1),
    summaryOf: (key) => analyzer.summary(key),
    findings: () => analyzer.findings(),
  };
}
