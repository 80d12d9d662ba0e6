/**
 * How the hub's recording begins: packages/trace's JSONL header, then one event a line as
 * `encodeEvent` writes it (read back with `decodeEventLine`), so `loopscope replay`, the web's
 * file loader and every other reader take a recording as it is. The same lines are what the
 * WebSocket and GET /api/trace send (see TraceHub.push).
 */
import { encodeHeader, isHeaderRecord } from "@loopscope/trace";

export interface RecordingMeta {
  /** "live" for a run recorded by `loopscope up`. */
  source: string;
  /** ISO time the recording began. */
  created: string;
  /** Where the events came from ("embedded", "kubeconfig"). */
  cluster?: string;
  /** Other header fields, written back as they came (a replayed file's own). */
  extra?: Record<string, unknown>;
}

/** The header line, "\n" included. */
export function recordingHeader({ source, created, cluster, extra }: RecordingMeta): string {
  return encodeHeader({ source, created, extra: cluster ? { ...extra, cluster } : extra });
}

/** Whether the line is a trace header (what a recording begins with). */
export function isHeaderLine(line: string): boolean {
  if (!line.startsWith("{")) return false;
  try {
    return isHeaderRecord(JSON.parse(line));
  } catch {
    return false;
  }
}
