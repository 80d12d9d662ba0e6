/**
 * The worker's reader: packages/trace's streaming TraceReader (JSONL or klog, detected from the
 * first line), with loopscope's own JSONL records taken straight from the bytes into the batch
 * (jsonlRows.ts), and a klog log's canonical STAGE lines likewise from their fields (klogRows.ts).
 * The worker feeds it byte chunks; rows go into the RowEncoder, either directly or
 * as events through the sink, in file order; new diagnostics come out through the sink.
 */
import type { Diagnostic } from "../analysis/model.ts";
import type { TraceEvent } from "../event.ts";
import type { ReadOutcome } from "../reader/not-a-trace.ts";
import { TraceReader } from "../reader/trace-reader.ts";
import type { RowEncoder } from "./row-encoder.ts";
import { JsonlRows } from "./jsonl-rows.ts";
import { KlogRows } from "./klog-rows.ts";

export interface RowSink {
  event(e: TraceEvent): void;
  diagnostic(d: Diagnostic): void;
  /** A row went into the encoder directly (JSONL records excepted: they count as lines). */
  row?(): void;
}

export interface RowReader {
  push(chunk: Uint8Array, sink: RowSink): void;
  end(sink: RowSink): void;
  /** "jsonl" | "klog" | "docker-json" once known, else "empty". */
  format(): string;
  /** Lines that have ended so far (those a chunk's tail holds the start of excluded). */
  lines(): number;
  /**
   * Lines recognized as trace input (klog lines, JSONL header and records), readable or not:
   * rows taken from the bytes count at once (TraceReader.takeRecord).
   */
  recognized(): number;
  /** What the input gave, to tell a trace from the rest (packages/trace's whyNotATrace). */
  outcome(): ReadOutcome;
  /** Diagnostics made so far, those beyond the sink's (TraceReader's maxDiagnostics) included. */
  diagnosticCount(): number;
  /** The bytes stopped before the input's end (TraceReader.inputStopped). Call before `end`. */
  inputStopped(why: string, sink: RowSink): void;
  /** The bytes came whole but failed their check (TraceReader.inputFailedCheck). Before `end`. */
  inputFailedCheck(why: string, sink: RowSink): void;
}

const NL = 10;
/** Blank lines, to count the lines read as rows in the general reader too (line numbers). */
const NEWLINES = new Uint8Array(64 * 1024).fill(NL);

/**
 * `keepKlogRaw`: keep a klog line's text beside its row (default); false when the page reads the
 * lines back from the file (see LineMarks).
 */
export function createRowReader(encoder: RowEncoder, keepKlogRaw = true): RowReader {
  /** The sink of the push under way, told of rows the klog path adds. */
  let current: RowSink | undefined;
  const klogRows = new KlogRows(encoder, keepKlogRaw, () => current?.row?.());
  const reader = new TraceReader({ rows: klogRows });
  const rows = new JsonlRows(encoder, (seq, ts) => reader.takeRecord(seq, ts));
  let diagnosed = 0;
  /** Lines taken as rows since the general reader last saw a line. */
  let taken = 0;
  /** Whether the general reader holds the start of a line (a chunk ended inside it). */
  let straddling = false;
  const general = (bytes: Uint8Array, sink: RowSink) => {
    while (taken > 0) {
      const n = Math.min(taken, NEWLINES.length);
      reader.push(NEWLINES.subarray(0, n));
      taken -= n;
    }
    reader.push(bytes, sink.event);
  };
  const diagnostics = (sink: RowSink) => {
    while (diagnosed < reader.diagnostics.length) sink.diagnostic(reader.diagnostics[diagnosed++]);
  };
  return {
    push: (chunk, sink) => {
      current = sink;
      let at = 0;
      if (straddling) {
        // The line's start is in the general reader already: it gets the rest of it too.
        const nl = chunk.indexOf(NL);
        at = nl < 0 ? chunk.length : nl + 1;
        general(chunk.subarray(0, at), sink);
        straddling = nl < 0;
      }
      while (at < chunk.length) {
        // Only JSONL records are taken from the bytes here: the rest of a klog log goes whole.
        if (reader.format === "klog" || reader.format === "docker-json") {
          general(chunk.subarray(at), sink);
          at = chunk.length;
          break;
        }
        const nl = chunk.indexOf(NL, at);
        if (nl < 0) {
          general(chunk.subarray(at), sink);
          straddling = true;
          break;
        }
        if (reader.format === "jsonl" && rows.read(chunk, at, nl)) taken++;
        else general(chunk.subarray(at, nl + 1), sink);
        at = nl + 1;
      }
      diagnostics(sink);
    },
    end: (sink) => {
      current = sink;
      general(new Uint8Array(0), sink);
      reader.end(sink.event);
      diagnostics(sink);
    },
    format: () => reader.format ?? "empty",
    // Rows taken straight from the bytes reach the general reader as blank lines later.
    lines: () => reader.lines + taken,
    recognized: () => reader.recognizedLines,
    outcome: () => reader,
    diagnosticCount: () => reader.diagnosticCount,
    // The lines taken as rows first, so that the warning is on the line after the last read.
    inputStopped: (why, sink) => {
      general(new Uint8Array(0), sink);
      reader.inputStopped(why);
      diagnostics(sink);
    },
    inputFailedCheck: (why, sink) => {
      general(new Uint8Array(0), sink);
      reader.inputFailedCheck(why);
      diagnostics(sink);
    },
  };
}
