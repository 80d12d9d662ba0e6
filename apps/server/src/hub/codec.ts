/**
 * How the hub writes and reads its recording: one JSON object per line, a header line first.
 *
 * This is the server's seam to packages/trace's JSONL format: the header and event lines written
 * here must be what `loopscope replay` and the web's file loader read back.
 */
import type { TraceEvent } from "@loopscope/trace";

export interface RecordingMeta {
  /** "live" for a run recorded by `loopscope up`. */
  source: string;
  /** ISO time the recording began. */
  started: string;
  cluster?: string;
}

export interface TraceCodec {
  header(meta: RecordingMeta): string;
  encode(e: TraceEvent): string;
  /** The event on a line, or undefined for the header, a blank or a torn/malformed line. */
  decode(line: string): TraceEvent | undefined;
}

export const jsonlCodec: TraceCodec = {
  header: (meta) => JSON.stringify({ loopscope: "trace", version: 1, ...meta }),
  encode: (e) => JSON.stringify(e),
  decode(line) {
    if (!line.startsWith("{")) return undefined;
    try {
      const v = JSON.parse(line) as Partial<TraceEvent>;
      return typeof v.seq === "number" && typeof v.stage === "string"
        ? (v as TraceEvent)
        : undefined;
    } catch {
      return undefined;
    }
  },
};
