/** The printed result: one row per case, baseline first, aligned columns. */
import { num, type Summary } from "./stats.ts";

export interface Row {
  bench: string;
  case: string;
  unit: string;
  summary: Summary;
  /** case median / baseline median; undefined on the baseline row itself. */
  ratio?: number;
  baseline: boolean;
}

export function renderTable(rows: readonly Row[]): string {
  const head = ["bench", "case", "median", "min–max", "runs", "vs baseline"];
  const cells = rows.map((r) => [
    r.bench,
    r.baseline ? `${r.case} (baseline)` : r.case,
    `${num(r.summary.median)} ${r.unit}`,
    `${num(r.summary.min)}–${num(r.summary.max)}`,
    String(r.summary.runs.length),
    r.baseline ? "1" : r.ratio === undefined ? "–" : `×${num(r.ratio)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c.map((x, i) => (i < 2 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join("  ");
  return [line(head), line(widths.map((w) => "─".repeat(w))), ...cells.map(line)].join("\n") + "\n";
}
