/**
 * The columnar TraceStore: every event of a trace as one row across typed-array columns.
 *
 * Why columns: a million events as JS objects cost ~1 KB each; here a row costs ~50 B of typed
 * arrays plus what its strings add. Strings that repeat (keys, the "rest" of an event once its
 * per-event numbers are taken out) are interned, so an enqueue line that differs from the last
 * one only by queue length and seq shares its detail string.
 *
 * Invariants:
 * - rows are appended in arrival order; `seq` strictly increases along rows (the stream owner's
 *   promise, see packages/trace event.ts), so a seq is found by binary search;
 * - an event is rebuilt losslessly from its row by `event(row)` (round trip tested);
 * - `version` increases on every append; views redraw when it changes and never hold rows.
 */
import type { TraceEvent } from "@loopscope/trace";
import { Column, StringTable } from "./columns.ts";

export const KIND_CODES = ["watch", "enqueue", "dequeue", "read", "write", "done", "note"] as const;
export type KindCode = number;
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
const NUMERIC_FIELDS = ["rv", "oldRv", "line", "len", "causeSeq"] as const;
type NumericField = (typeof NUMERIC_FIELDS)[number];
/** Fields of the row itself; everything else goes into the interned detail string. */
const ROW_FIELDS = new Set<string>(["seq", "ts", "key", "stage", "raw", ...NUMERIC_FIELDS]);

const ABSENT = 0xffffffff;

/** rv-like values are strings on the wire; keep them numeric when that is lossless. */
function asColumnNumber(field: NumericField, v: unknown): number | undefined {
  if (field === "rv" || field === "oldRv") {
    if (typeof v !== "string" || !/^(0|[1-9]\d{0,14})$/.test(v)) return undefined;
    return Number(v);
  }
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < ABSENT ? v : undefined;
}

export class TraceStore {
  readonly seq = new Column(Uint32Array);
  readonly ts = new Column(Float64Array);
  readonly stage = new Column(Uint8Array);
  readonly key = new Column(Uint32Array);
  /** rv columns are f64 (NaN = absent); small counters are u32 (ABSENT = absent). */
  private readonly nums: Record<NumericField, Column<Float64Array> | Column<Uint32Array>> = {
    rv: new Column(Float64Array),
    oldRv: new Column(Float64Array),
    line: new Column(Uint32Array),
    len: new Column(Uint32Array),
    causeSeq: new Column(Uint32Array),
  };
  private readonly detail = new Column(Uint32Array);
  /** Raw log lines, only for text-log sources (sparse: unset rows cost one slot). */
  private readonly raw: (string | undefined)[] = [];
  readonly keys = new StringTable();
  private readonly details = new StringTable();
  private readonly parsedDetails = new Map<number, Record<string, unknown>>();
  private readonly rowsByKey = new Map<number, Column<Uint32Array>>();
  private minTs = Infinity;
  private maxTs = -Infinity;
  version = 0;
  private readonly listeners = new Set<() => void>();

  get length(): number {
    return this.seq.length;
  }

  /** Appends a batch (one version bump, one notification). */
  append(events: readonly TraceEvent[]): void {
    if (events.length === 0) return;
    for (const e of events) this.appendOne(e);
    this.version++;
    for (const l of this.listeners) l();
  }

  private appendOne(e: TraceEvent): void {
    const row = this.seq.length;
    this.seq.push(e.seq);
    this.ts.push(e.ts);
    this.stage.push(STAGE_CODE[e.stage] ?? 6);
    const keyId = this.keys.intern(e.key);
    this.key.push(keyId);
    const rec = e as unknown as Record<string, unknown>;
    const rest: Record<string, unknown> = {};
    let hasRest = false;
    for (const f of NUMERIC_FIELDS) {
      const v = rec[f];
      const n = v === undefined ? undefined : asColumnNumber(f, v);
      this.nums[f].push(n ?? (f === "rv" || f === "oldRv" ? NaN : ABSENT));
      if (v !== undefined && n === undefined) {
        rest[f] = v;
        hasRest = true;
      }
    }
    for (const k in rec) {
      if (ROW_FIELDS.has(k) || rec[k] === undefined) continue;
      rest[k] = rec[k];
      hasRest = true;
    }
    this.detail.push(hasRest ? this.details.intern(JSON.stringify(rest)) : 0);
    if (e.raw !== undefined) this.raw[row] = e.raw;
    let rows = this.rowsByKey.get(keyId);
    if (!rows) this.rowsByKey.set(keyId, (rows = new Column(Uint32Array, 64)));
    rows.push(row);
    if (e.ts < this.minTs) this.minTs = e.ts;
    if (e.ts > this.maxTs) this.maxTs = e.ts;
  }

  /**
   * The interned rest-of-event of a row, parsed once per distinct string (there are few: they
   * repeat across a key's events). Callers must not mutate it.
   */
  detailOf(row: number): Readonly<Record<string, unknown>> {
    const id = this.detail.get(row);
    let d = this.parsedDetails.get(id);
    if (!d) {
      const s = this.details.value(id);
      d = s === undefined ? {} : (JSON.parse(s) as Record<string, unknown>);
      this.parsedDetails.set(id, d);
    }
    return d;
  }

  /** Rebuilds the event at `row`. */
  event(row: number): TraceEvent {
    const out: Record<string, unknown> = {
      seq: this.seq.get(row),
      ts: this.ts.get(row),
      key: this.keys.value(this.key.get(row)) ?? "",
      stage: KIND_CODES[this.stage.get(row)],
    };
    Object.assign(out, structuredClone(this.detailOf(row)));
    for (const f of NUMERIC_FIELDS) {
      const n = this.nums[f].get(row);
      if (!Number.isNaN(n) && n !== ABSENT) out[f] = f === "rv" || f === "oldRv" ? String(n) : n;
    }
    const raw = this.raw[row];
    if (raw !== undefined) out.raw = raw;
    return out as unknown as TraceEvent;
  }

  /** Row of the event with this seq, or -1. */
  rowOfSeq(seq: number): number {
    const s = this.seq.data;
    let lo = 0;
    let hi = this.seq.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = s[mid];
      if (v === seq) return mid;
      if (v < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The numeric resourceVersion of a row (NaN when absent or not numeric). */
  rvOf(row: number): number {
    return this.nums.rv.get(row);
  }

  /** Numeric column value, or undefined when absent. */
  numOf(field: "line" | "len" | "causeSeq", row: number): number | undefined {
    const n = this.nums[field].get(row);
    return n === ABSENT ? undefined : n;
  }

  /** Row indexes of one key's events, in arrival order (a view; do not keep across appends). */
  rowsOf(key: string): Uint32Array {
    const id = this.keys.find(key);
    const rows = id === undefined ? undefined : this.rowsByKey.get(id);
    return rows ? rows.view() : new Uint32Array(0);
  }

  /** Every non-empty key seen, in first-seen order. */
  keyList(): string[] {
    const out: string[] = [];
    for (let id = 1; id <= this.keys.size; id++) {
      const k = this.keys.value(id);
      if (k) out.push(k);
    }
    return out;
  }

  lastSeq(): number {
    return this.seq.length === 0 ? 0 : this.seq.get(this.seq.length - 1);
  }

  /** [min, max] event time in µs, or undefined when empty. */
  timeExtent(): [number, number] | undefined {
    return this.seq.length === 0 ? undefined : [this.minTs, this.maxTs];
  }

  /** Approximate heap bytes held by the store (columns at capacity + string tables). */
  bytes(): number {
    let n = this.seq.bytes() + this.ts.bytes() + this.stage.bytes() + this.key.bytes();
    n += this.detail.bytes();
    for (const f of NUMERIC_FIELDS) n += this.nums[f].bytes();
    for (const c of this.rowsByKey.values()) n += c.bytes();
    n += this.keys.bytes() + this.details.bytes();
    n += this.raw.length * 8;
    for (const r of this.raw) if (r !== undefined) n += r.length + 16;
    return n;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
