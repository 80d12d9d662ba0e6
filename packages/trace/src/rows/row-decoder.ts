/**
 * Turns `ColumnBatch`es back into events, for a reader of the batches that keeps no store: the
 * replay's analysis worker, which runs the Analyzer on the reader worker's batches.
 *
 * Invariants:
 * - fed every batch of one RowEncoder, in order, it rebuilds each event as TraceStore.event would,
 *   except `raw` (log text the analysis never reads);
 * - events of one detail share its parsed members (arrays included): they are for reading only;
 *   a member that names the row's key (key-refs.ts) is resolved per row.
 */
import type { TraceEvent } from "../event.ts";
import {
  ABSENT,
  KIND_CODES,
  NUMERIC_FIELDS,
  type ColumnBatch,
  type NumericField,
} from "./row-encoder.ts";
import { isKeyRef, KEY_REF_FIELDS, resolveKeyRef, type KeyRef } from "./key-refs.ts";

/** A detail's member that names its row's key (see key-refs.ts). */
interface RefMember {
  field: (typeof KEY_REF_FIELDS)[number];
  ref: KeyRef;
}

const RV_SLOTS = 4096;

export class RowDecoder {
  private readonly keys: string[] = [""];
  private readonly details: (string | Record<string, unknown>)[] = [""];
  /** Per parsed detail id: its members that name the row's key, if any. */
  private readonly refs: (RefMember[] | undefined)[] = [];
  /**
   * Per (detail, which numeric columns a row has): an event with every property it will get, to
   * clone. Cloning an object with the final shape is one allocation; building one up property
   * by property (Object.assign) was several, and most of the analysis worker's garbage.
   */
  private readonly templates = new Map<number, Record<string, unknown>>();
  /** Per detail id: its reused event for `visit` (see makeWide). */
  private readonly wide: (WideEvent | typeof NOT_WIDE | undefined)[] = [];
  /** Per detail id: the numeric fields its members hold (values no column could hold), if any. */
  private readonly wideOwn: OwnNumbers[] = [];
  /**
   * The latest rv strings made, by value mod RV_SLOTS: a resourceVersion comes back in the next few
   * events (the write that made it, its watch event, the next read), and each String() of it
   * was a fresh string for the collector.
   */
  private readonly rvNumbers = new Float64Array(RV_SLOTS).fill(NaN);
  private readonly rvStrings: string[] = new Array<string>(RV_SLOTS).fill("");

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
    this.checkStep(b);
    this.rows(b, sink);
  }

  /**
   * Like `each`, but every row of one (detail, numeric columns) is handed over in one and the same
   * object, refilled per row: for a sink that reads an event and keeps nothing of it but its
   * values (the Analyzer). A million short-lived events were most of the analysis worker's
   * garbage, and the collector's threads competed with the reader for the cores.
   */
  visit(b: ColumnBatch, sink: (e: TraceEvent) => void): void {
    this.checkStep(b);
    const { seq, ts, key, stage, detail, rv, oldRv, line, len, causeSeq, worker } = b;
    const keys = this.keys;
    for (let i = 0; i < b.length; i++) {
      const d = detail[i];
      const e = this.wide[d] ?? this.makeWide(d);
      if (e === NOT_WIDE) {
        this.rows(b, sink, i, i + 1);
        continue;
      }
      e.seq = seq[i];
      e.ts = ts[i];
      e.key = keys[key[i]] ?? "";
      e.stage = KIND_CODES[stage[i]];
      const r = rv[i];
      const o = oldRv[i];
      const l = line[i];
      const n = len[i];
      const c = causeSeq[i];
      const w = worker[i];
      // A field a column could not hold exactly is in the detail: the row's absent value is that.
      const own = this.wideOwn[d];
      e.rv = Number.isNaN(r) ? own.rv : this.rvString(r);
      e.oldRv = Number.isNaN(o) ? own.oldRv : this.rvString(o);
      e.line = l === ABSENT ? own.line : l;
      e.len = n === ABSENT ? own.len : n;
      e.causeSeq = c === ABSENT ? own.causeSeq : c;
      e.worker = w === ABSENT ? own.worker : w;
      const refs = this.refs[d];
      if (refs !== undefined) resolveRefs(e, refs, e.key);
      sink(e as unknown as TraceEvent);
    }
  }

  /** String(rv), from the recent ones when it is one of them. */
  private rvString(rv: number): string {
    const slot = rv % RV_SLOTS;
    if (this.rvNumbers[slot] === rv) return this.rvStrings[slot];
    const s = String(rv);
    this.rvNumbers[slot] = rv;
    this.rvStrings[slot] = s;
    return s;
  }

  /**
   * The reused event of a detail: every field of every stage, in one order, so that all of them
   * share one hidden class and the Analyzer's property loads stay monomorphic (events shaped by
   * their own members made them megamorphic: most of the Analyzer's time per write).
   */
  private makeWide(id: number): WideEvent | typeof NOT_WIDE {
    const members = id === 0 ? {} : this.detail(id);
    let own = NO_OWN_NUMBERS;
    for (const k in members) {
      if (!WIDE_FIELDS.has(k)) return (this.wide[id] = NOT_WIDE);
      if ((NUMERIC_FIELDS as readonly string[]).includes(k)) {
        if (own === NO_OWN_NUMBERS) own = { ...NO_OWN_NUMBERS };
        own[k as NumericField] = members[k];
      }
    }
    const e = wideEvent();
    Object.assign(e, members);
    this.wideOwn[id] = own;
    return (this.wide[id] = e);
  }

  /** Takes the batch's new strings; throws if it does not continue the batches before it. */
  private checkStep(b: ColumnBatch): void {
    if (b.firstKeyId !== this.keys.length || b.firstDetailId !== this.details.length) {
      throw new Error("RowDecoder: batch out of step with the ones before it");
    }
    for (const k of b.newKeys) this.keys.push(k);
    for (const d of b.newDetails) this.details.push(d);
  }

  private rows(b: ColumnBatch, sink: (e: TraceEvent) => void, from = 0, to = b.length): void {
    // The columns by name once per batch, not per row (a keyed lookup by a variable name is slow).
    const { seq, ts, key, stage, detail, rv, oldRv, line, len, causeSeq, worker } = b;
    for (let i = from; i < to; i++) {
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
      const refs = this.refs[detail[i]];
      if (refs !== undefined) resolveRefs(e, refs, e.key as string);
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
    for (const field of KEY_REF_FIELDS) {
      const ref = parsed[field];
      if (isKeyRef(ref)) (this.refs[id] ??= []).push({ field, ref });
    }
    return parsed;
  }
}

/** Sets the members that name the row's key to what they stand for on a row of `key`. */
function resolveRefs(e: Record<string, unknown>, refs: RefMember[], key: string): void {
  for (const { field, ref } of refs) {
    const v = resolveKeyRef(ref, key);
    // Each by its name: a store by a computed name would make the event's stores megamorphic.
    if (field === "target") e.target = v;
    else if (field === "name") e.name = v;
    else if (field === "ns") e.ns = v;
    else e.error = v;
  }
}

/**
 * Every field of the field table but `raw`, and `extra`: written out, not derived, so that V8
 * gives the object one fast shape (an object built up by keyed stores goes to dictionary mode).
 * A test holds it to the table.
 */
export function wideEvent() {
  return {
    seq: 0,
    ts: 0,
    key: "",
    stage: "",
    src: undefined as unknown,
    line: undefined as unknown,
    extra: undefined as unknown,
    kind: undefined as unknown,
    event: undefined as unknown,
    ns: undefined as unknown,
    name: undefined as unknown,
    rv: undefined as unknown,
    oldRv: undefined as unknown,
    initial: undefined as unknown,
    len: undefined as unknown,
    merged: undefined as unknown,
    cause: undefined as unknown,
    causeSeq: undefined as unknown,
    delayMs: undefined as unknown,
    worker: undefined as unknown,
    generation: undefined as unknown,
    found: undefined as unknown,
    verb: undefined as unknown,
    target: undefined as unknown,
    code: undefined as unknown,
    reason: undefined as unknown,
    changed: undefined as unknown,
    fields: undefined as unknown,
    outcome: undefined as unknown,
    error: undefined as unknown,
    level: undefined as unknown,
    text: undefined as unknown,
    inferred: undefined as unknown,
  };
}
type WideEvent = ReturnType<typeof wideEvent>;
const WIDE_FIELDS = new Set(Object.keys(wideEvent()));
/** The numeric fields a detail holds itself (values no column could hold exactly). */
type OwnNumbers = Record<NumericField, unknown>;
const NO_OWN_NUMBERS = Object.freeze(
  Object.fromEntries(NUMERIC_FIELDS.map((f) => [f, undefined])),
) as OwnNumbers;

/** A detail with a member no wide event has: its rows are built as fresh events instead. */
const NOT_WIDE = Symbol("not wide");
