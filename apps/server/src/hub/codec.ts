/**
 * How the hub writes and reads its recording: packages/trace's JSONL format (a header line,
 * then one event per line), so `loopscope replay`, the web's file loader and every other
 * reader take a recording as it is.
 */
import {
  decodeEvent,
  encodeEvent,
  encodeHeader,
  isHeaderRecord,
  type TraceEvent,
} from "@loopscope/trace";

export interface RecordingMeta {
  /** "live" for a run recorded by `loopscope up`. */
  source: string;
  /** ISO time the recording began. */
  created: string;
  /** Where the events came from ("embedded", "kubeconfig"). */
  cluster?: string;
}

export interface TraceCodec {
  /** The header line, "\n" included. */
  header(meta: RecordingMeta): string;
  /** One event as one line, "\n" included. */
  encode(e: TraceEvent): string;
  /** The event on a line, or undefined for the header, a blank or a torn/malformed line. */
  decode(line: string): TraceEvent | undefined;
  /** Whether the line is a header this codec writes (what a recording begins with). */
  isHeader(line: string): boolean;
}

export const jsonlCodec: TraceCodec = {
  header: ({ source, created, cluster }) =>
    encodeHeader({ source, created, extra: cluster ? { cluster } : undefined }),
  encode: encodeEvent,
  decode(line) {
    if (!line.startsWith("{")) return undefined;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return undefined;
    }
    const r = decodeEvent(record);
    return r.ok && r.hasSeq ? r.event : undefined;
  },
  isHeader(line) {
    if (!line.startsWith("{")) return false;
    try {
      return isHeaderRecord(JSON.parse(line));
    } catch {
      return false;
    }
  },
};
