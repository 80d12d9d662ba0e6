/**
 * The annotated excerpt of one key, by packages/trace's `excerpt` (the same text the CLI prints).
 */
import type { Analyzer } from "@loopscope/trace";
import type { TraceStore } from "./traceStore.ts";

export function renderExcerpt(_store: TraceStore, _analyzer: Analyzer, _key: string): string {
  return "";
}
