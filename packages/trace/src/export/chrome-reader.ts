/**
 * Reads events back from a Chrome Trace Event JSON file written by ChromeTraceWriter (also after
 * a trip through a tool that keeps `args`, e.g. Perfetto's "convert to JSON" of our file).
 *
 * Invariants:
 * - The records are the instants whose cat is "stage", "done" or "note" and whose `args` is a
 *   trace event; slices, flows, counters and metadata are the writer's drawing and are skipped.
 * - Streaming when it can: our writer puts one trace event per line, so lines are read as they
 *   arrive. Anything else (a one-line or pretty-printed file, the JSON Array Format) is kept and
 *   parsed whole at `end()`.
 * - Never throws on input: a broken line or record becomes a diagnostic with its line number
 *   (or its index in `traceEvents` when the file is parsed whole), and the rest still loads.
 * - The header of the JSONL trace the file was made from (`otherData.header`, see the writer) is
 *   `header` once the document's first line — or, parsed whole, the document — is read.
 * - Events come out in file order with `seq` kept while it increases, shifted from where it does
 *   not (the original then in `extra.fileSeq`), causeSeqs followed — the JSONL reader's rule
 *   (reader/file-seqs.ts).
 */
import type { TraceEvent } from "../event.ts";
import type { Diagnostic } from "../analysis/model.ts";
import { LineSplitter } from "../lines/splitter.ts";
import { decodeEvent } from "../jsonl/decode-event.ts";
import { decodeHeader, isHeaderRecord, type TraceHeader } from "../jsonl/format.ts";
import { FileSeqs } from "../reader/file-seqs.ts";
import { chromeEventProblem } from "./chrome-format.ts";

const RECORD_CATS = new Set(["stage", "done", "note"]);

/** Whether the start of a file looks like Chrome trace JSON rather than JSONL or klog. */
export function looksLikeChromeTrace(head: string): boolean {
  const t = head.replace(/^\uFEFF/, "").trimStart();
  // The JSON Array Format: "[" and then an event object (or "]"). A log's first line may begin
  // with "[" too — `kubectl logs --prefix` writes "[pod/name/container] I1202 …" — and is no JSON.
  if (t.startsWith("[")) return /^\[\s*([{\]]|$)/.test(t);
  if (!t.startsWith("{")) return false;
  const firstLine = t.slice(0, t.indexOf("\n") >= 0 ? t.indexOf("\n") : undefined);
  return (
    /"traceEvents"\s*:/.test(firstLine) ||
    /^\{\s*$/.test(firstLine) ||
    /^\{\s*"(displayTimeUnit|otherData|systemTraceEvents)"/.test(firstLine)
  );
}

export class ChromeTraceReader {
  readonly diagnostics: Diagnostic[] = [];
  events = 0;
  /** Trace events (of any phase) looked at. */
  records = 0;
  /** The header of the JSONL trace the file was written from, when it carries one. */
  header: TraceHeader | undefined;

  private readonly splitter = new LineSplitter();
  private mode: "unknown" | "lines" | "whole" = "unknown";
  private whole: string[] = [];
  private out: TraceEvent[] = [];
  private readonly seqs = new FileSeqs();
  private readonly onLine = (line: string, no: number) => this.line(line, no);

  push(chunk: Uint8Array | string): TraceEvent[] {
    this.splitter.push(chunk, this.onLine);
    return this.take();
  }

  end(): TraceEvent[] {
    this.splitter.end(this.onLine);
    if (this.mode === "whole") this.parseWhole(this.whole.join("\n"));
    this.whole = [];
    return this.take();
  }

  private take(): TraceEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private line(text: string, no: number): void {
    if (this.mode === "whole") {
      this.whole.push(text);
      return;
    }
    const t = text.trim();
    if (t.length === 0) return;
    if (this.mode === "unknown") {
      // Our header: `{...,"traceEvents":[` with the array left open at the end of the line.
      if (t.startsWith("{") && /"traceEvents"\s*:\s*\[$/.test(t)) {
        this.mode = "lines";
        this.takeHeader(parseOpening(t));
        return;
      }
      this.mode = "whole";
      this.whole.push(text);
      return;
    }
    if (t === "]}" || t === "]" || t === "}") return;
    const body = t.endsWith(",") ? t.slice(0, -1) : t;
    let rec: unknown;
    try {
      rec = JSON.parse(body);
    } catch {
      this.diagnose(no, "not a JSON trace event; line skipped");
      return;
    }
    this.record(rec, no);
  }

  private parseWhole(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      this.diagnose(
        1,
        `not Chrome trace JSON (${err instanceof Error ? err.message : String(err)})`,
      );
      return;
    }
    const list = Array.isArray(doc) ? doc : (doc as { traceEvents?: unknown } | null)?.traceEvents;
    if (!Array.isArray(list)) {
      this.diagnose(1, 'no "traceEvents" array');
      return;
    }
    this.takeHeader(doc);
    // Without line structure, the index in traceEvents (1-based) stands in for the line.
    list.forEach((rec, i) => this.record(rec, i + 1));
  }

  private record(rec: unknown, no: number): void {
    this.records++;
    const problem = chromeEventProblem(rec);
    if (problem) {
      this.diagnose(no, `invalid trace event: ${problem}`);
      return;
    }
    const ev = rec as { ph: string; cat?: unknown; args?: Record<string, unknown> };
    if ((ev.ph !== "i" && ev.ph !== "I") || typeof ev.cat !== "string" || !RECORD_CATS.has(ev.cat))
      return;
    const r = decodeEvent(ev.args);
    if (!r.ok) {
      this.diagnose(no, r.message);
      return;
    }
    const e = r.event;
    this.seqs.number(e, r.hasSeq);
    this.events++;
    this.out.push(e);
  }

  /** The header in the document's `otherData`, if any (`doc`: the document, or its opening). */
  private takeHeader(doc: unknown): void {
    const other = (doc as { otherData?: { header?: unknown } } | null)?.otherData;
    const h = typeof other === "object" && other !== null ? other.header : undefined;
    if (isHeaderRecord(h)) this.header = decodeHeader(h);
  }

  private diagnose(line: number, message: string): void {
    if (this.diagnostics.length < 1000) this.diagnostics.push({ line, message, level: "error" });
  }
}

/** Our document's first line, `{"otherData":{…},"traceEvents":[`, closed and parsed; else undefined. */
function parseOpening(line: string): unknown {
  try {
    return JSON.parse(line + "]}");
  } catch {
    return undefined;
  }
}
