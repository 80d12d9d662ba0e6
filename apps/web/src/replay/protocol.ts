/** Messages between the page and the replay worker (structured-clone friendly). */
import type { Diagnostic, TraceEvent } from "@loopscope/trace";

export type ToWorker = { type: "open"; file: Blob; name: string } | { type: "cancel" };

export type FromWorker =
  | {
      type: "batch";
      events: TraceEvent[];
      diagnostics: Diagnostic[];
      /** Input bytes consumed so far (compressed bytes for gzip). */
      bytes: number;
      total: number;
    }
  | { type: "done"; bytes: number; total: number; format: string }
  | { type: "error"; message: string };
