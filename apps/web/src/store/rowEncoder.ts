/**
 * Turns events into a `ColumnBatch`: the TraceStore's rows as typed arrays plus the strings
 * interned since the previous batch. The replay worker encodes and transfers batches (zero copy),
 * so the page appends columns without ever holding an event object; live mode encodes on the page
 * through the same code (`TraceStore.append`).
 *
 * Invariants:
 * - one encoder feeds one store: string ids in a batch continue the ids of the batches before it
 *   (`newKeys[0]` gets id `firstKeyId`), so the store appends deltas without looking strings up;
 * - an event is rebuilt losslessly from its row (see TraceStore.event): a field goes into a numeric
 *   column only when the column holds it exactly, everything else into the interned detail JSON.
 */
import type { TraceEvent } from "@loopscope/trace";

export const STAGE_CODE: Record<TraceEvent["stage"], number> = {
  watch: 0,
  enqueue: 1,
  dequeue: 2,
  read: 3,
  write: 4,
  done: 5,
  note: 6,
};

/** Fields that get their own numeric column (when they are plain integers). */
export const NUMERIC_FIELDS = ["rv", "oldRv", "line", "len", "causeSeq"] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];
/** Fields of the row itself; everything else goes into the interned detail string. */
const ROW_FIELDS = new Set<string>(["seq", "ts", "key", "stage", "raw", ...NUMERIC_FIELDS]);

/** "Absent" in a u32 column; rv columns are f64 and use NaN. */
export const ABSENT = 0xffffffff;

export interface ColumnBatch {
  length: number;
  seq: Uint32Array;
  ts: Float64Array;
  stage: Uint8Array;
  key: Uint32Array;
  rv: Float64Array;
  oldRv: Float64Array;
  line: Uint32Array;
  len: Uint32Array;
  causeSeq: Uint32Array;
  detail: Uint32Array;
  /** Keys first seen in this batch, in id order, starting at id `firstKeyId`. */
  firstKeyId: number;
  newKeys: string[];
  /** Detail strings first seen in this batch, in id order, starting at `firstDetailId`. */
  firstDetailId: number;
  newDetails: string[];
  /** Raw log lines by batch row (text-log sources only); absent when no row has one. */
  raw?: (string | undefined)[];
}

/** The buffers of a batch, for `postMessage(batch, transferList(batch))`. */
export function transferList(b: ColumnBatch): ArrayBuffer[] {
  return [b.seq, b.ts, b.stage, b.key, b.rv, b.oldRv, b.line, b.len, b.causeSeq, b.detail].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

/** rv-like values are strings on the wire; keep them numeric when that is lossless. */
function asColumnNumber(field: NumericField, v: unknown): number | undefined {
  if (field === "rv" || field === "oldRv") {
    if (typeof v !== "string" || !/^(0|[1-9]\d{0,14})$/.test(v)) return undefined;
    return Number(v);
  }
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < ABSENT ? v : undefined;
}

const NAMES = new Map<string, string>();

/** `"name":value` for the detail JSON, with a leading comma unless it is the first member. */
function member(name: string, v: unknown, sofar: string): string {
  let n = NAMES.get(name);
  if (n === undefined) NAMES.set(name, (n = `${JSON.stringify(name)}:`));
  const value = typeof v === "number" && Number.isFinite(v) ? String(v) : JSON.stringify(v);
  return sofar ? `,${n}${value}` : n + value;
}

class Interner {
  private readonly ids = new Map<string, number>();
  private next = 1;
  fresh: string[] = [];
  firstFresh = 1;

  intern(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(s, id);
      this.fresh.push(s);
    }
    return id;
  }

  take(): { first: number; values: string[] } {
    const out = { first: this.firstFresh, values: this.fresh };
    this.fresh = [];
    this.firstFresh = this.next;
    return out;
  }
}

export class RowEncoder {
  private readonly keys = new Interner();
  private readonly details = new Interner();

  /** Encodes `events` (all of them, in order) into one batch. */
  encode(events: readonly TraceEvent[]): ColumnBatch {
    const n = events.length;
    const seq = new Uint32Array(n);
    const ts = new Float64Array(n);
    const stage = new Uint8Array(n);
    const key = new Uint32Array(n);
    const rv = new Float64Array(n);
    const oldRv = new Float64Array(n);
    const line = new Uint32Array(n);
    const len = new Uint32Array(n);
    const causeSeq = new Uint32Array(n);
    const detail = new Uint32Array(n);
    const nums = { rv, oldRv, line, len, causeSeq };
    let raw: (string | undefined)[] | undefined;
    for (let i = 0; i < n; i++) {
      const e = events[i];
      seq[i] = e.seq;
      ts[i] = e.ts;
      stage[i] = STAGE_CODE[e.stage] ?? 6;
      key[i] = e.key === undefined ? 0 : this.keys.intern(e.key);
      const rec = e as unknown as Record<string, unknown>;
      // The detail JSON is written field by field: no rest object per event (most of the
      // encoder's time when it built one and stringified it).
      let rest = "";
      for (const f of NUMERIC_FIELDS) {
        const v = rec[f];
        const c = v === undefined ? undefined : asColumnNumber(f, v);
        nums[f][i] = c ?? (f === "rv" || f === "oldRv" ? NaN : ABSENT);
        if (v !== undefined && c === undefined) rest += member(f, v, rest);
      }
      for (const k in rec) {
        const v = rec[k];
        if (v === undefined || ROW_FIELDS.has(k)) continue;
        rest += member(k, v, rest);
      }
      detail[i] = rest ? this.details.intern(`{${rest}}`) : 0;
      if (e.raw !== undefined) (raw ??= new Array<string | undefined>(n))[i] = e.raw;
    }
    const k = this.keys.take();
    const d = this.details.take();
    const batch: ColumnBatch = {
      length: n,
      seq,
      ts,
      stage,
      key,
      rv,
      oldRv,
      line,
      len,
      causeSeq,
      detail,
      firstKeyId: k.first,
      newKeys: k.values,
      firstDetailId: d.first,
      newDetails: d.values,
    };
    if (raw) batch.raw = raw;
    return batch;
  }
}
