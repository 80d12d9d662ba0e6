/**
 * Turns events into a `ColumnBatch`: the TraceStore's rows as typed arrays plus the strings
 * interned since the previous batch. The replay's reader worker encodes and transfers batches
 * (zero copy), so the page appends columns without ever holding an event object; live mode
 * encodes on the page through the same code (`TraceStore.append`).
 *
 * Invariants:
 * - one encoder feeds one store: string ids in a batch continue the ids of the batches before it
 *   (`newKeys[0]` gets id `firstKeyId`), so the store appends deltas without looking strings up;
 * - an event is rebuilt losslessly from its row (see TraceStore.event): a field goes into a numeric
 *   column only when the column holds it exactly, everything else into the interned detail JSON,
 *   where a value that names the row's key is a reference to it (key-refs.ts) — so the details
 *   of one Foo's lines are every Foo's.
 */
import { detach } from "../detach.ts";
import { BatchIds } from "./batch-ids.ts";
import { EVENT_KINDS, type TraceEvent } from "../event.ts";
import { NOT_DECIMAL, rvNumber } from "../analysis/rv-number.ts";
import { KEY_REF_FIELDS, keyRef, KeyRefCodes } from "./key-refs.ts";

/** Stage by code: a row's stage column holds the kind's index in EVENT_KINDS. */
export const KIND_CODES = EVENT_KINDS;

/** Code by stage: the inverse of KIND_CODES. */
export const STAGE_CODE = Object.fromEntries(EVENT_KINDS.map((k, i) => [k, i])) as Record<
  TraceEvent["stage"],
  number
>;

/** Fields that get their own numeric column (when they are plain integers). */
export const NUMERIC_FIELDS = ["rv", "oldRv", "line", "len", "causeSeq", "worker"] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];
/** Fields of the row itself; everything else goes into the interned detail string. */
const ROW_FIELDS = new Set<string>(["seq", "ts", "key", "stage", "raw", ...NUMERIC_FIELDS]);

/** "Absent" in a u32 column; rv columns are f64 and use NaN. */
export const ABSENT = 0xffffffff;

/** The columns of a row and their element types: the one list of them. */
const COLUMN_TYPES = {
  seq: Uint32Array,
  ts: Float64Array,
  stage: Uint8Array,
  key: Uint32Array,
  rv: Float64Array,
  oldRv: Float64Array,
  line: Uint32Array,
  len: Uint32Array,
  causeSeq: Uint32Array,
  worker: Uint32Array,
  detail: Uint32Array,
} as const;
type ColumnName = keyof typeof COLUMN_TYPES;
const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as ColumnName[];

/** The row columns of a batch (see TraceStore for what each holds). */
export type RowColumns = { [C in ColumnName]: InstanceType<(typeof COLUMN_TYPES)[C]> };

export interface ColumnBatch extends RowColumns {
  length: number;
  /** Keys first seen in this batch, in id order, starting at id `firstKeyId`. */
  firstKeyId: number;
  newKeys: string[];
  /** Detail strings first seen in this batch, in id order, starting at `firstDetailId`. */
  firstDetailId: number;
  newDetails: string[];
  /** Raw log lines by batch row (text-log sources only); absent when no row has one. */
  raw?: (string | undefined)[];
}

/** The buffers of a batch, for `postMessage(batch, transferList(batch))`, each once. */
export function transferList(b: ColumnBatch): ArrayBuffer[] {
  return [...new Set(COLUMN_NAMES.map((c) => b[c].buffer as ArrayBuffer))];
}

/** A numeric column's value as the event's field: undefined when absent, rv-like ones as strings. */
export function fieldOfColumn(field: NumericField, n: number): number | string | undefined {
  if (Number.isNaN(n) || n === ABSENT) return undefined;
  return field === "rv" || field === "oldRv" ? String(n) : n;
}

/** rv-like values are strings on the wire; keep them numeric when that is lossless. */
function asColumnNumber(field: NumericField, v: unknown): number | undefined {
  if (field === "rv" || field === "oldRv") return typeof v === "string" ? decimal(v) : undefined;
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < ABSENT ? v : undefined;
}

/** A canonical decimal rv's number (see rvNumber), else undefined. */
export function decimal(v: string): number | undefined {
  const n = rvNumber(v);
  return n === NOT_DECIMAL ? undefined : n;
}

/** Puts a numeric field into its column, or — absent there — into the detail. */
function numeric(
  v: unknown,
  field: NumericField,
  column: Float64Array | Uint32Array,
  i: number,
  detail: DetailBuilder,
): void {
  const c = v === undefined ? undefined : asColumnNumber(field, v);
  if (c !== undefined) column[i] = c;
  else {
    column[i] = field === "rv" || field === "oldRv" ? NaN : ABSENT;
    if (v !== undefined) detail.add(field, v);
  }
}

const NAMES = new Map<string, string>();

const REF_FIELDS = new Set<string>(KEY_REF_FIELDS);

/**
 * `"name":value` for the detail JSON of a row of `key`: a value that names the key is written as
 * a reference to it (see key-refs.ts).
 */
export function member(name: string, v: unknown, key: string): string {
  if (typeof v === "string" && REF_FIELDS.has(name)) {
    const ref = keyRef(v, key);
    if (ref !== undefined) return memberName(name) + JSON.stringify(ref);
  }
  return plainMember(name, v);
}

function memberName(name: string): string {
  let n = NAMES.get(name);
  if (n === undefined) NAMES.set(name, (n = `${JSON.stringify(name)}:`));
  return n;
}

function plainMember(name: string, v: unknown): string {
  const n = memberName(name);
  if (typeof v === "string") return n + quote(v);
  return n + (typeof v === "number" && Number.isFinite(v) ? String(v) : JSON.stringify(v));
}

/** JSON.stringify for a string, without its general machinery when nothing needs escaping. */
function quote(v: string): string {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(v);
  }
  return `"${v}"`;
}

/** A detail as built before: its members, their references to the key (-1: none), its id. */
interface DetailMemo {
  names: string[];
  values: unknown[];
  refs: number[];
  id: number;
}

/**
 * Collects one event's detail members and finds the detail's id. Interning means hashing the whole
 * JSON text (most of the encoder's time when it did so for every event: a Map lookup of a fresh
 * 100-character string costs about a microsecond), yet a stage's events mostly repeat one of a
 * few details seen lately (a write of the Deployment or of the status, changed or not): those are
 * recognised by comparing the members' values instead — a value that names the row's key by the
 * number of its reference (KeyRefCodes), so that every Foo's events match.
 */
class DetailBuilder {
  count = 0;
  private readonly names: string[] = [];
  private readonly values: unknown[] = [];
  private readonly refs: number[] = [];
  private readonly refCodes = new KeyRefCodes();
  /** The latest details per stage code, most recently used first. */
  private readonly recent: DetailMemo[][] = Array.from({ length: 8 }, () => []);

  add(name: string, value: unknown): void {
    this.names[this.count] = name;
    this.values[this.count] = value;
    this.count++;
  }

  /** The id of the detail collected, on a row of `key` and stage code `stage`. */
  id(stage: number, key: string, ids: BatchIds): number {
    const n = this.count;
    for (let i = 0; i < n; i++) {
      const v = this.values[i];
      this.refs[i] =
        typeof v === "string" && REF_FIELDS.has(this.names[i]) ? this.refCodes.code(v, key) : -1;
    }
    const memos = this.recent[stage];
    for (let i = 0; i < memos.length; i++) {
      const m = memos[i];
      if (!this.matches(m)) continue;
      if (i > 0) {
        memos.splice(i, 1);
        memos.unshift(m);
      }
      return m.id;
    }
    const members = new Array<string>(n);
    for (let i = 0; i < n; i++) members[i] = member(this.names[i], this.values[i], key);
    const id = ids.id(`{${members.join(",")}}`);
    if (memos.length >= MEMO_WAYS) memos.pop();
    // The memo keeps copies: values cut from a log line would keep the line's whole chunk alive.
    // A reference's value is not kept: it is one Foo's.
    memos.unshift({
      names: this.names.slice(0, n),
      values: this.values.slice(0, n).map((v, i) => (this.refs[i] < 0 ? detached(v) : undefined)),
      refs: this.refs.slice(0, n),
      id,
    });
    return id;
  }

  private matches(m: DetailMemo): boolean {
    const n = this.count;
    if (m.names.length !== n) return false;
    for (let i = 0; i < n; i++) {
      if (m.names[i] !== this.names[i] || m.refs[i] !== this.refs[i]) return false;
      if (m.refs[i] < 0 && !sameValue(m.values[i], this.values[i])) return false;
    }
    return true;
  }
}

/** Details remembered per stage. */
const MEMO_WAYS = 8;

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x: unknown = a[i];
    if (x !== b[i] || (typeof x === "object" && x !== null)) return false;
  }
  return true;
}

/** A value that shares no memory with the text it was read from (objects: never matched again). */
function detached(v: unknown): unknown {
  if (typeof v === "string") return detach(v);
  if (Array.isArray(v)) return v.map(detached);
  return v;
}

/** A batch's columns while it is being filled (capacity ≥ rows written). */
type Filling = RowColumns;

/** Each column of `f` made by `make` (built in one order: every Filling has one shape). */
function mapColumns(make: (c: ColumnName) => Filling[ColumnName]): Filling {
  const f = {} as Record<ColumnName, Filling[ColumnName]>;
  for (const c of COLUMN_NAMES) f[c] = make(c);
  return f as Filling;
}

/**
 * A batch's columns, one typed array each. (One buffer shared by all columns was tried: in a Chrome
 * worker filling it was slower, 1.35–1.57 s against 1.30–1.34 s per 1M rows — an allocation that
 * big is fresh memory from the system every batch, where smaller ones are reused.)
 */
function filling(n: number): Filling {
  return mapColumns((c) => new COLUMN_TYPES[c](n));
}

/** The first `n` rows of `f`, as views of the same buffer (which goes along, rows past `n` unread). */
function cut(f: Filling, n: number): Filling {
  return f.seq.length === n ? f : mapColumns((c) => f[c].subarray(0, n));
}

function copyRows(to: Filling, from: Filling, n: number): void {
  for (const c of COLUMN_NAMES) to[c].set(from[c].subarray(0, n));
}

/**
 * Fills a batch row by row: from events (`add`), or from rows another reader has already taken
 * apart (`addRow`: the worker's byte-level JSONL path), both into the same batch, in order.
 */
export class RowEncoder {
  /**
   * Key and detail ids from 1 (the page's string table keeps 0 for "none"); a detail is a JSON
   * text, see DetailBuilder for its form. The row readers intern into these too.
   */
  readonly keyIds = new BatchIds(1);
  readonly detailIds = new BatchIds(1);
  private readonly detailBuilder = new DetailBuilder();
  private cols: Filling = filling(0);
  private n = 0;
  private raw: (string | undefined)[] | undefined;

  /** Rows added since the last `finish`. */
  get rows(): number {
    return this.n;
  }

  /** Encodes `events` (all of them, in order) into one batch. */
  encode(events: readonly TraceEvent[]): ColumnBatch {
    this.reserve(events.length);
    for (const e of events) this.add(e);
    return this.finish();
  }

  /** Makes room for `rows` more rows (one allocation instead of doublings). */
  reserve(rows: number): void {
    if (this.n + rows > this.cols.seq.length) this.grow(this.n + rows);
  }

  add(e: TraceEvent): void {
    const i = this.slot();
    const c = this.cols;
    c.seq[i] = e.seq;
    c.ts[i] = e.ts;
    c.stage[i] = STAGE_CODE[e.stage] ?? 6;
    c.key[i] = e.key === undefined ? 0 : this.keyIds.id(e.key);
    const rec = e as unknown as Record<string, unknown>;
    const d = this.detailBuilder;
    d.count = 0;
    numeric(rec.rv, "rv", c.rv, i, d);
    numeric(rec.oldRv, "oldRv", c.oldRv, i, d);
    numeric(rec.line, "line", c.line, i, d);
    numeric(rec.len, "len", c.len, i, d);
    numeric(rec.causeSeq, "causeSeq", c.causeSeq, i, d);
    numeric(rec.worker, "worker", c.worker, i, d);
    for (const k in rec) {
      const v = rec[k];
      if (v !== undefined && !ROW_FIELDS.has(k)) d.add(k, v);
    }
    c.detail[i] = d.count > 0 ? d.id(c.stage[i], e.key ?? "", this.detailIds) : 0;
    if (e.raw !== undefined) (this.raw ??= [])[i] = e.raw;
  }

  /**
   * Adds a row whose fields are already columns: numbers as the columns hold them (NaN / ABSENT
   * for absent), `key` and `detail` as ids from `keyId` / `detailId`.
   */
  addRow(
    seq: number,
    ts: number,
    stage: number,
    key: number,
    rv: number,
    oldRv: number,
    line: number,
    len: number,
    causeSeq: number,
    worker: number,
    detail: number,
  ): void {
    const i = this.slot();
    const c = this.cols;
    c.seq[i] = seq;
    c.ts[i] = ts;
    c.stage[i] = stage;
    c.key[i] = key;
    c.rv[i] = rv;
    c.oldRv[i] = oldRv;
    c.line[i] = line;
    c.len[i] = len;
    c.causeSeq[i] = causeSeq;
    c.worker[i] = worker;
    c.detail[i] = detail;
  }

  /** Sets the raw log line of the row added last (see `addRow`). */
  setRaw(text: string): void {
    (this.raw ??= [])[this.n - 1] = text;
  }

  /** The rows added since the last call, as a batch (its buffers ready to transfer). */
  finish(): ColumnBatch {
    const n = this.n;
    const k = this.keyIds.take();
    const d = this.detailIds.take();
    const batch: ColumnBatch = {
      length: n,
      ...cut(this.cols, n),
      firstKeyId: k.first,
      newKeys: k.values,
      firstDetailId: d.first,
      newDetails: d.values,
    };
    if (this.raw) {
      this.raw.length = n;
      batch.raw = this.raw;
    }
    // The batch owns the arrays now (they are transferred): the next one starts afresh.
    this.cols = filling(0);
    this.n = 0;
    this.raw = undefined;
    return batch;
  }

  private slot(): number {
    if (this.n === this.cols.seq.length) this.grow(Math.max(64, this.n * 2));
    return this.n++;
  }

  private grow(capacity: number): void {
    const next = filling(capacity);
    copyRows(next, this.cols, this.n);
    this.cols = next;
  }
}
