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
import {
  ABSENT,
  fieldOfColumn,
  NUMERIC_FIELDS,
  KIND_CODES,
  RowEncoder,
  resolveKeyRefs,
  type ColumnBatch,
  type NumericField,
} from "@loopscope/trace";
import type { TraceEvent } from "@loopscope/trace";
import { Column, StringTable } from "./columns.ts";

export { STAGE_CODE } from "@loopscope/trace";

const NO_ROWS: readonly number[] = Object.freeze([]);
/** No row: the end of a key's chain (see `nextOfKey`). */
const NONE = 0xffffffff;
export type KindCode = number;

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
    worker: new Column(Uint32Array),
  };
  private readonly detail = new Column(Uint32Array);
  /** Raw log lines, only for text-log sources (sparse: unset rows cost one slot). */
  private readonly raw: (string | undefined)[] = [];
  readonly keys = new StringTable();
  /** Detail strings by id (id 0 = none); interning happens in the RowEncoder. */
  private readonly details: string[] = [""];
  /** Encodes `append`ed events; unused when batches arrive encoded (the replay worker). */
  private encoder?: RowEncoder;
  private readonly parsedDetails = new Map<number, Record<string, unknown>>();
  /**
   * The rows of each key, as a chain: `nextOfKey[row]` is the next row of the same key (NONE at a
   * key's last). Appending costs two typed-array writes per row and allocates nothing; a key's
   * list is built from the chain when a view asks for it (`rowsOf`), and only for the keys views
   * look at. (Plain per-key arrays, grown per row, meant ten thousand arrays for the page to
   * reallocate and collect while a file loaded.)
   */
  private readonly nextOfKey = new Column(Uint32Array);
  /** Per key id: its first and last row (NONE: none yet) and how many rows it has. */
  private readonly headOfKey: number[] = [];
  private readonly tailOfKey: number[] = [];
  private readonly countOfKey: number[] = [];
  /** Per key id: its rows as built so far for a view (extended from the chain when it grew). */
  private readonly listOfKey = new Map<number, number[]>();
  /** Per key id: the ts of its last row, and whether its rows' ts ever went down (then no
   * binary search on time; see `rowRange`). */
  private readonly lastTsByKey: number[] = [];
  private readonly unsortedKeys = new Set<number>();
  private minTs = Infinity;
  private maxTs = -Infinity;
  version = 0;
  private readonly listeners = new Set<() => void>();

  get length(): number {
    return this.seq.length;
  }

  /**
   * Makes room for `rows` events in all, when the caller can tell how many are coming (a file
   * being read): the columns then grow once instead of doubling a dozen times, each doubling
   * allocating and copying every column on the page's main thread.
   */
  reserve(rows: number): void {
    for (const c of [this.seq, this.ts, this.stage, this.key, this.detail, this.nextOfKey])
      c.reserve(rows);
    for (const f of NUMERIC_FIELDS) this.nums[f].reserve(rows);
  }

  /** Appends a batch of events (one version bump, one notification). */
  append(events: readonly TraceEvent[]): void {
    if (events.length === 0) return;
    this.appendColumns((this.encoder ??= new RowEncoder()).encode(events));
  }

  /**
   * Appends an encoded batch: one typed-array copy per column, then one pass over the new rows
   * for the per-key row index and the time extent. Batches of one store must come from one
   * encoder (string ids continue across batches).
   */
  appendColumns(b: ColumnBatch): void {
    if (b.length === 0) return;
    const first = this.seq.length;
    this.keys.addInterned(b.firstKeyId, b.newKeys);
    if (b.firstDetailId !== this.details.length)
      throw new Error(`detail table out of step: ${b.firstDetailId}`);
    for (const d of b.newDetails) this.details.push(d);
    this.seq.pushAll(b.seq);
    this.ts.pushAll(b.ts);
    this.stage.pushAll(b.stage);
    this.key.pushAll(b.key);
    this.detail.pushAll(b.detail);
    for (const f of NUMERIC_FIELDS) this.nums[f].pushAll(b[f]);
    if (b.raw) b.raw.forEach((r, i) => r !== undefined && (this.raw[first + i] = r));
    const head = this.headOfKey;
    const tail = this.tailOfKey;
    const count = this.countOfKey;
    const lastTs = this.lastTsByKey;
    for (let k = head.length; k <= this.keys.size; k++) {
      head.push(NONE);
      tail.push(NONE);
      count.push(0);
      lastTs.push(-Infinity);
    }
    this.nextOfKey.extendTo(first + b.length);
    const next = this.nextOfKey.data;
    let minTs = this.minTs;
    let maxTs = this.maxTs;
    for (let i = 0; i < b.length; i++) {
      const k = b.key[i];
      const t = b.ts[i];
      const row = first + i;
      next[row] = NONE;
      const last = tail[k];
      if (last === NONE) head[k] = row;
      else next[last] = row;
      tail[k] = row;
      count[k]++;
      if (t < lastTs[k]) this.unsortedKeys.add(k);
      else lastTs[k] = t;
      if (t < minTs) minTs = t;
      if (t > maxTs) maxTs = t;
    }
    this.minTs = minTs;
    this.maxTs = maxTs;
    this.version++;
    for (const l of this.listeners) l();
  }

  /**
   * The interned rest-of-event of a row, parsed once per distinct string (there are few: they
   * repeat across a key's events). Members that name the row's key are references to it, left
   * unresolved (`event` resolves them). Callers must not mutate it.
   */
  detailOf(row: number): Readonly<Record<string, unknown>> {
    const id = this.detail.get(row);
    let d = this.parsedDetails.get(id);
    if (!d) {
      const s = id === 0 ? undefined : this.details[id];
      d = s === undefined ? {} : (JSON.parse(s) as Record<string, unknown>);
      this.parsedDetails.set(id, d);
    }
    return d;
  }

  /** Rebuilds the event at `row` (the caller's own copy). */
  event(row: number): TraceEvent {
    return this.build(row, true);
  }

  /**
   * The event at `row` for reading only: its array and object fields are shared with every row of
   * the same detail. For callers that rebuild many events to compute something (the excerpt), where
   * a deep copy of each was most of the cost.
   */
  readEvent(row: number): TraceEvent {
    return this.build(row, false);
  }

  private build(row: number, copy: boolean): TraceEvent {
    const out: Record<string, unknown> = {
      seq: this.seq.get(row),
      ts: this.ts.get(row),
      key: this.keys.value(this.key.get(row)) ?? "",
      stage: KIND_CODES[this.stage.get(row)],
    };
    const detail = resolveKeyRefs(this.detailOf(row), out.key as string);
    Object.assign(out, copy ? structuredClone(detail) : detail);
    for (const f of NUMERIC_FIELDS) {
      const v = fieldOfColumn(f, this.nums[f].get(row));
      if (v !== undefined) out[f] = v;
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

  /** Numeric column value, or undefined when absent. */
  numOf(field: "line" | "len" | "causeSeq", row: number): number | undefined {
    const n = this.nums[field].get(row);
    return n === ABSENT ? undefined : n;
  }

  /** Row indexes of one key's events, in arrival order (the store's own list: read, do not keep). */
  rowsOf(key: string): ArrayLike<number> {
    const id = this.keys.find(key);
    if (id === undefined || !(this.countOfKey[id] > 0)) return NO_ROWS;
    let list = this.listOfKey.get(id);
    if (!list) this.listOfKey.set(id, (list = []));
    const n = this.countOfKey[id];
    if (list.length < n) {
      const next = this.nextOfKey.data;
      let row = list.length === 0 ? this.headOfKey[id] : next[list[list.length - 1]];
      while (list.length < n) {
        list.push(row);
        row = next[row];
      }
    }
    return list;
  }

  /**
   * The part of `rows` (one key's `rowsOf`) whose events may lie in [t0, t1] µs, as [from, to)
   * indexes into `rows`: found by binary search when the key's ts never went down (the usual
   * case), else the whole list. Lets a view scan only what is on screen.
   */
  rowRange(key: string, rows: ArrayLike<number>, t0: number, t1: number): [number, number] {
    const id = this.keys.find(key);
    if (id === undefined || this.unsortedKeys.has(id)) return [0, rows.length];
    const ts = this.ts.data;
    /** First index whose ts is > t (orEqual: >= t). */
    const bound = (t: number, orEqual: boolean) => {
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const v = ts[rows[mid]];
        if (v < t || (!orEqual && v === t)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [bound(t0, true), bound(t1, false)];
  }

  /**
   * The key of the first scenario note (src "scenario") at or after `row` that names one: the
   * Foo a scenario run from the dashboard acts on.
   */
  scenarioKeyFrom(row: number): string | undefined {
    for (let r = Math.max(0, row); r < this.length; r++) {
      if (KIND_CODES[this.stage.get(r)] !== "note") continue;
      const key = this.keys.value(this.key.get(r));
      if (key && this.readEvent(r).src === "scenario") return key;
    }
    return undefined;
  }

  /**
   * The Foo the page opens on, as `loopscope excerpt` picks it (packages/trace's ExcerptEvents):
   * the first Foo added (its informer's add), else the first key of an event that is no note.
   * The first key seen may be another Foo's resync or a scenario's note.
   */
  defaultKey(): string | undefined {
    let first: string | undefined;
    for (let r = 0; r < this.length; r++) {
      const stage = KIND_CODES[this.stage.get(r)];
      if (stage === "note") continue;
      const key = this.keys.value(this.key.get(r));
      if (!key) continue;
      first ??= key;
      if (stage !== "watch") continue;
      const e = this.readEvent(r);
      if (e.stage === "watch" && e.kind === "Foo" && e.event === "add") return key;
    }
    return first;
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
    n += this.nextOfKey.bytes() + this.headOfKey.length * 24;
    for (const c of this.listOfKey.values()) n += c.length * 4 + 16;
    n += this.keys.bytes();
    for (const d of this.details) n += d.length + 16;
    n += this.raw.length * 8;
    for (const r of this.raw) if (r !== undefined) n += r.length + 16;
    return n;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
