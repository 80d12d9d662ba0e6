/**
 * Messages of a replay (structured-clone friendly). Two workers share the work on two cores:
 * the reader worker turns the file into column batches, posted to the page and copied to the
 * analysis worker, which rebuilds the events and runs the Analyzer on them. No event object ever
 * crosses a thread.
 */
import type { Diagnostic } from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";
import type { ColumnBatch } from "../store/rowEncoder.ts";

/** Page → reader worker. `analysis` is the port to the analysis worker. */
export type ToReader =
  { type: "open"; file: Blob; name: string; analysis: MessagePort } | { type: "cancel" };

/** Reader worker → page. */
export type FromReader =
  | {
      type: "batch";
      /** The events as columns; their ArrayBuffers are transferred, not copied. */
      columns: ColumnBatch;
      diagnostics: Diagnostic[];
      /** Input bytes consumed so far (compressed bytes for gzip). */
      bytes: number;
      total: number;
    }
  | { type: "done"; bytes: number; total: number; format: string }
  | { type: "error"; message: string };

/** Page → analysis worker: the port the reader worker will post its batches to. */
export type ToAnalysis = { type: "port"; port: MessagePort };

/** Reader worker → analysis worker, over that port. */
export type ReaderToAnalysis = { type: "batch"; columns: ColumnBatch } | { type: "end" };

/** Analysis worker → page. */
export type FromAnalysis =
  | { type: "analysis"; update: AnalysisUpdate }
  | { type: "done" }
  | { type: "error"; message: string };
