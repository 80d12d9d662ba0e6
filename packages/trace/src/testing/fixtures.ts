/** Test helpers: fixture files and whole-text analysis (Node only; never imported by the library). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Analyzer, type AnalyzerOptions } from "../analysis/analyzer.ts";
import { readTraceText } from "../reader/read-trace.ts";
import type { ReaderOptions } from "../reader/trace-reader.ts";

export const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));

export function fixture(path: string): string {
  return readFileSync(FIXTURES + path, "utf8");
}

export function analyze(text: string, opts: ReaderOptions & AnalyzerOptions = {}) {
  const { events, reader } = readTraceText(text, { year: 2026, ...opts });
  const analyzer = new Analyzer(opts);
  for (const e of events) analyzer.push(e);
  return { events, reader, analyzer };
}
