/**
 * Messages between the page and the replay worker (structured-clone friendly). Batches carry no
 * event objects: columns (transferred) and the analysis of their events.
 */
import type { Diagnostic } from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";
import type { ColumnBatch } from "../store/rowEncoder.ts";

export type ToWorker = { type: "open"; file: Blob; name: string } | { type: "cancel" };

export type FromWorker =
  | {
      type: "batch";
      /** The events as columns; their ArrayBuffers are transferred, not copied. */
      columns: ColumnBatch;
      /** The worker's Analyzer results for these events. */
      analysis: AnalysisUpdate;
      diagnostics: Diagnostic[];
      /** Input bytes consumed so far (compressed bytes for gzip). */
      bytes: number;
      total: number;
    }
  | { type: "done"; bytes: number; total: number; format: string }
  | { type: "error"; message: string };
