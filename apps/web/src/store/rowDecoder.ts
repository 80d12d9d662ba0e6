/**
 * Turns `ColumnBatch`es back into events, for a reader of the batches that keeps no store: the
 * replay's analysis worker, which runs the Analyzer on the reader worker's batches.
 *
 * Invariants:
 * - fed every batch of one RowEncoder, in order, it rebuilds each event as TraceStore.event would,
 *   except `raw` (log text the analysis never reads);
 * - events of one detail share its parsed members (arrays included): they are for reading only.
 */
import type { TraceEvent } from "@loopscope/trace";
import { fieldOfColumn, KIND_CODES, NUMERIC_FIELDS, type ColumnBatch } from "./rowEncoder.ts";

export class RowDecoder {
  private readonly keys: string[] = [""];
  private readonly details: (string | Record<string, unknown>)[] = [""];

  decode(b: ColumnBatch): TraceEvent[] {
    if (b.firstKeyId !== this.keys.length || b.firstDetailId !== this.details.length) {
      throw new Error("RowDecoder: batch out of step with the ones before it");
    }
    for (const k of b.newKeys) this.keys.push(k);
    for (const d of b.newDetails) this.details.push(d);
    const out = new Array<TraceEvent>(b.length);
    for (let i = 0; i < b.length; i++) {
      const e: Record<string, unknown> = {
        seq: b.seq[i],
        ts: b.ts[i],
        key: this.keys[b.key[i]] ?? "",
        stage: KIND_CODES[b.stage[i]],
      };
      const d = b.detail[i];
      if (d !== 0) Object.assign(e, this.detail(d));
      for (const f of NUMERIC_FIELDS) {
        const v = fieldOfColumn(f, b[f][i]);
        if (v !== undefined) e[f] = v;
      }
      out[i] = e as unknown as TraceEvent;
    }
    return out;
  }

  /** The members of detail `id`, parsed on first use. */
  private detail(id: number): Record<string, unknown> {
    const d = this.details[id];
    if (typeof d !== "string") return d;
    const parsed = JSON.parse(d) as Record<string, unknown>;
    this.details[id] = parsed;
    return parsed;
  }
}
