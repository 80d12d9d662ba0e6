/**
 * Golden records: what a reader and the Analyzer make of an input, as text, one record a line,
 * so that a change anywhere on the way from bytes to findings shows as a diff of the recorded
 * files. Shared by the reader's golden test, the web worker's and the generated log shapes'.
 */
import { Analyzer, type AnalyzerOptions } from "../analysis/analyzer.ts";
import type { TraceEvent } from "../event.ts";
import type { Diagnostic, Pass } from "../analysis/model.ts";

/**
 * JSON with every object's keys sorted: a record holds values, not the order in which a producer
 * happened to set them.
 */
export function sortedJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
      : typeof x === "string" && x.length > LONG
        ? `${x.slice(0, 40)}… (${x.length} characters, hash ${hash(x)})`
        : x,
  );
}

/** Strings longer than this are recorded by their start, length and hash. */
const LONG = 400;

function hash(s: string): string {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16);
}

/** The Analyzer's whole output on `events`: summaries, passes, findings, pass index per event. */
export function analysisRecord(events: readonly TraceEvent[], opts: AnalyzerOptions = {}): string {
  const a = new Analyzer(opts);
  const indexes = events.map((e) => a.push(e));
  const out: string[] = [];
  const snap = a.snapshot();
  out.push(`events ${snap.events} ${sortedJson(snap.byStage)}`);
  out.push(`pass index per event: ${indexes.join(",")}`);
  for (const f of snap.findings) out.push(`finding ${sortedJson(f)}`);
  for (const key of a.keys()) {
    out.push(`key ${sortedJson(snap.keys[key])}`);
    const passes: readonly Pass[] = a.passes(key);
    for (const p of passes) out.push(`  pass ${sortedJson(p)}`);
  }
  return out.join("\n") + "\n";
}

/**
 * What a reader made of an input: its counts, diagnostics and events — a klog event's `raw` left
 * out (it is the event's line, or a Docker json-file record's, which the tests check on their own;
 * the replay worker's rows carry it beside the columns, not in them).
 */
export interface ReadRecord {
  format: string | undefined;
  lines: number;
  events: readonly TraceEvent[];
  diagnostics: readonly Diagnostic[];
  diagnosticCount: number;
}

export function readRecord(r: ReadRecord): string {
  const out = [`format ${r.format} lines ${r.lines} events ${r.events.length}`];
  out.push(`diagnostics ${r.diagnosticCount}`);
  for (const d of r.diagnostics) out.push(`  ${d.line} ${d.level} ${d.message}`);
  for (const e of r.events) {
    if (r.format !== "klog" && r.format !== "docker-json") out.push(sortedJson(e));
    else {
      const { raw: _raw, ...rest } = e;
      out.push(sortedJson(rest));
    }
  }
  return out.join("\n") + "\n";
}
