/**
 * Checks a reader's outcome on one corpus case against the case's own account of its lines.
 * Returns the problems found (empty = the reader kept its contract), so callers in different
 * settings — in-process, the CLI's JSON, the browser — share one judgement.
 */
import type { CorpusCase } from "./corpus.ts";

export interface ReadOutcome {
  /** Keys of the events read. */
  keys: Iterable<string>;
  diagnostics: { line: number; level?: string; message: string }[];
  /** Total diagnostics (the kept list may be capped). */
  diagnosticCount?: number;
  lines: number;
}

export function checkCase(c: CorpusCase, out: ReadOutcome): string[] {
  const problems: string[] = [];
  const keys = new Set(out.keys);
  for (const g of c.good)
    if (!keys.has(g.key)) problems.push(`good line ${g.line} lost (key ${g.key})`);
  const diagnosed = new Set(out.diagnostics.map((d) => d.line));
  const capped = (out.diagnosticCount ?? out.diagnostics.length) > out.diagnostics.length;
  const lastKept = Math.max(0, ...out.diagnostics.map((d) => d.line));
  for (const b of c.bad)
    if (!diagnosed.has(b) && !(capped && b > lastKept))
      problems.push(`bad line ${b} has no diagnostic`);
  const goodLines = new Set(c.good.map((g) => g.line));
  for (const d of out.diagnostics) {
    if (d.line < 1 || d.line > Math.max(out.lines, 1))
      problems.push(`diagnostic on line ${d.line}, outside 1..${out.lines}: ${d.message}`);
    if (d.level === "error" && goodLines.has(d.line))
      problems.push(`error on good line ${d.line}: ${d.message}`);
  }
  return problems;
}
