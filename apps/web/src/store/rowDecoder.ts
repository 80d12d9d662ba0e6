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
import { ABSENT, KIND_CODES, NUMERIC_FIELDS, type ColumnBatch } from "./rowEncoder.ts";

export class RowDecoder {
  private readonly keys: string[] = [""];
  private readonly details: (string | Record<string, unknown>)[] = [""];
  /**
   * Per (detail, which numeric columns a row has): an event with every property it will get, to
   * clone. Cloning an object with the final shape is one allocation; building one up property
   * by property (Object.assign) was several, and most of the analysis worker's garbage.
   */
  private readonly templates = new Map<number, Record<string, unknown>>();

  /** The batch's events, in order. */
  decode(b: ColumnBatch): TraceEvent[] {
    const out: TraceEvent[] = [];
    this.each(b, (e) => out.push(e));
    return out;
  }

  /**
   * Hands each event of the batch to `sink` as soon as it is built: a consumer that keeps none of
   * them (the analysis) lets each die young, where a batch-sized array of them outlived garbage
   * collections — which then copied them, most of the analysis worker's time.
   */
  each(b: ColumnBatch, sink: (e: TraceEvent) => void): void {
    if (b.firstKeyId !== this.keys.length || b.firstDetailId !== this.details.length) {
      throw new Error("RowDecoder: batch out of step with the ones before it");
    }
    for (const k of b.newKeys) this.keys.push(k);
    for (const d of b.newDetails) this.details.push(d);
    // The columns by name once per batch, not per row (a keyed lookup by a variable name is slow).
    const { seq, ts, key, stage, detail, rv, oldRv, line, len, causeSeq, worker } = b;
    for (let i = 0; i < b.length; i++) {
      const r = rv[i];
      const o = oldRv[i];
      const l = line[i];
      const n = len[i];
      const c = causeSeq[i];
      const w = worker[i];
      // Bits in NUMERIC_FIELDS order: which of them this row has.
      const present =
        (Number.isNaN(r) ? 0 : 1) |
        (Number.isNaN(o) ? 0 : 2) |
        (l === ABSENT ? 0 : 4) |
        (n === ABSENT ? 0 : 8) |
        (c === ABSENT ? 0 : 16) |
        (w === ABSENT ? 0 : 32);
      const e = { ...this.template(detail[i], present) };
      e.seq = seq[i];
      e.ts = ts[i];
      e.key = this.keys[key[i]] ?? "";
      e.stage = KIND_CODES[stage[i]];
      if (present !== 0) {
        if ((present & 1) !== 0) e.rv = String(r);
        if ((present & 2) !== 0) e.oldRv = String(o);
        if ((present & 4) !== 0) e.line = l;
        if ((present & 8) !== 0) e.len = n;
        if ((present & 16) !== 0) e.causeSeq = c;
        if ((present & 32) !== 0) e.worker = w;
      }
      sink(e as unknown as TraceEvent);
    }
  }

  private template(detail: number, present: number): Record<string, unknown> {
    const id = detail * 64 + present;
    let t = this.templates.get(id);
    if (t === undefined) {
      t = { seq: 0, ts: 0, key: "", stage: "" };
      if (detail !== 0) Object.assign(t, this.detail(detail));
      NUMERIC_FIELDS.forEach((f, i) => {
        if ((present & (1 << i)) !== 0) t![f] = 0;
      });
      this.templates.set(id, t);
    }
    return t;
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
