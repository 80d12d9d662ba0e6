/**
 * Messages of a replay (structured-clone friendly). Two workers share the work on two cores, in a
 * chain: the reader worker turns the file into column batches and hands them (transferred) to the
 * analysis worker, which rebuilds the events, runs the Analyzer on them and hands each batch on
 * to the page with what it changed in the analysis. No event object ever crosses a thread and no
 * column is copied; the store and the analysis are never a batch apart.
 */
import { type ColumnBatch } from "@loopscope/trace";
import type { Diagnostic } from "@loopscope/trace";
import type { AnalysisUpdate } from "../store/remoteAnalysis.ts";

/**
 * Page → reader worker. `analysis` is the port to the analysis worker. `file` is a whole file, or
 * where to fetch one (a replay server's trace, read as it downloads).
 */
export type ToReader =
  | { type: "open"; file: Blob | TraceRequest; name: string; analysis: MessagePort }
  | { type: "cancel" };

/** A trace to fetch (same origin as the page; `headers` carry its token). */
export interface TraceRequest {
  url: string;
  headers: Record<string, string>;
}

/** Reader worker → page: only its failure (its batches go through the analysis worker). */
export type FromReader = { type: "error"; message: string };

/** What the reader knows about a batch, passed on to the page with it. */
export interface BatchInfo {
  diagnostics: Diagnostic[];
  /** Input bytes consumed so far (compressed bytes for gzip). */
  bytes: number;
  /** The input's size; undefined for a stream of unknown length. */
  total: number | undefined;
  /**
   * New marks of where lines start in the file (see LineMarks), when its rows carry no log lines
   * and the page is to read them from the file instead.
   */
  lineMarks?: Float64Array;
}

/** Reader worker → analysis worker, over that port. `final`: the last batch of the file. */
export type ReaderToAnalysis =
  | ({ type: "batch"; columns: ColumnBatch; final: boolean } & BatchInfo)
  | { type: "end"; bytes: number; total: number | undefined; format: string };

/** Page → analysis worker: the port the reader worker will post its batches to. */
export type ToAnalysis = { type: "port"; port: MessagePort };

/** Analysis worker → page. */
export type FromAnalysis =
  | ({
      type: "batch";
      /** The events as columns; their ArrayBuffers are transferred, not copied. */
      columns: ColumnBatch;
      /** What these events changed in the analysis. */
      analysis: AnalysisUpdate;
    } & BatchInfo)
  | { type: "done"; bytes: number; total: number | undefined; format: string }
  | { type: "error"; message: string };
