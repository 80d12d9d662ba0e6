/**
 * Decodes the server's /api/trace range body (JSONL with a header line) into events. Only used for
 * catch-up after a long disconnect; files go through the replay worker and packages/trace.
 */
import type { TraceEvent } from "@loopscope/trace";

export function decodeRange(body: string): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const line of body.split("\n")) {
    if (!line.startsWith("{")) continue;
    const v = JSON.parse(line) as Partial<TraceEvent>;
    if (typeof v.seq === "number" && typeof v.stage === "string") out.push(v as TraceEvent);
  }
  return out;
}
