/**
 * The replay worker's row path for klog logs: a STAGE line, once packages/trace's reader has taken
 * it apart (readStageBytes), goes from its fields straight into a row of the batch — no
 * event object, and no walk over an event's fields to encode it. On a 1M-line log those two cost
 * more than reading the lines. The controller's "Successfully synced" lines (a pass's end) go the
 * same way.
 *
 * Invariants:
 * - A line this path takes becomes exactly the row RowEncoder.add makes of the event the reader
 *   would have built: the same columns, key and detail ids. The detail text is built from the same
 *   members, in the same order (the stage's fields in the order the event holds them, then `src`).
 *   A test reads the same logs both ways and compares the batches.
 * - A value a column cannot hold exactly (an rv that is not a canonical decimal, a len or worker
 *   past u32) is declined: the line then becomes an event and takes the general path.
 * - A detail is looked up by the reader's ids of its strings (equal ids, equal strings): a few
 *   integers per key and stage in one typed array. Its text is built only when that misses.
 */
import { FIELD_TYPES, KIND_FIELDS, type FieldName, type FieldType } from "../event-fields.ts";
import { fieldList } from "../klog/spellings.ts";
import {
  stageFields,
  type LineContext,
  type StageFields,
  type StageRowTaker,
} from "../klog/stage-fields.ts";
import {
  ABSENT,
  decimal,
  KIND_CODES,
  member,
  NUMERIC_FIELDS,
  STAGE_CODE,
  type RowEncoder,
} from "./row-encoder.ts";

/**
 * Per stage code: the detail's members — the kind's fields its columns do not hold, in the
 * field table's order, then `src` — as RowEncoder.add meets them in the event.
 */
const DETAIL_NAMES = KIND_CODES.map((k) => [
  ...KIND_FIELDS[k].filter((f) => !(NUMERIC_FIELDS as readonly string[]).includes(f)),
  "src",
]);
const DONE = STAGE_CODE.done;
const STAGES = DETAIL_NAMES.length;
const MAX_MEMBERS = Math.max(...DETAIL_NAMES.map((names) => names.length));

/** How a member's value becomes its code (see `code`). */
const enum Coding {
  /** The line's source location (its id is the parser's). */
  Src,
  /** A string with the reader's id beside it (StageFields' `<name>Id`). */
  Id,
  /** A string without one: numbered as first met (a kind, a verb: few distinct values). */
  Seen,
  Number,
  Boolean,
  /** One of the field type's values. */
  OneOf,
}

/** The member's value in a record, the record's id of it, how it is coded: per stage code. */
const RECORD = stageFields() as unknown as Record<string, unknown>;
const CODINGS = DETAIL_NAMES.map((names) => names.map((n) => coding(n)));
const ID_NAMES = DETAIL_NAMES.map((names) => names.map((n) => `${n}Id`));

function coding(name: string): Coding {
  if (name === "src") return Coding.Src;
  const t: FieldType = FIELD_TYPES[name as FieldName];
  if (typeof t !== "string") return Coding.OneOf;
  if (t === "number") return Coding.Number;
  if (t === "boolean") return Coding.Boolean;
  return `${name}Id` in RECORD ? Coding.Id : Coding.Seen;
}

/** Details remembered per key and stage (a key's writes alternate between a few). */
const WAYS = 4;
/** A remembered detail: its members' codes, then its id (0: an empty way). */
const STRIDE = MAX_MEMBERS + 1;
/** Codes are int32s: a count or an id past this is not remembered (its detail is rebuilt). */
const MAX_CODE = 0x7ffffffe;
/** Remembered key ids (the reader's id → the encoder's), by the reader's id's low bits. */
const KEY_SLOTS = 1 << 16;
/** The record of a "Successfully synced" line (its other members are absent). */
const SYNCED = { outcome: "synced" };

/** A u32 column's value: ABSENT for undefined, -1 for what the column cannot hold. */
function u32(v: number | undefined): number {
  return v === undefined ? ABSENT : v < ABSENT ? v : -1;
}

/** A string's code from its id: the id + 1, or -1 when it has none that fits. */
function idCode(id: number): number {
  return id >= 0 && id < MAX_CODE ? id + 1 : -1;
}

/** Distinct values a `Seen` member numbers; past this, a value gets no code (rebuilt). */
const MAX_SEEN = 1024;

export class KlogRows implements StageRowTaker {
  /** The current line's member values and their codes, in DETAIL_NAMES order. */
  private readonly values: unknown[] = new Array<unknown>(MAX_MEMBERS).fill(undefined);
  private readonly codes = new Int32Array(MAX_MEMBERS);
  /** Codes of `Seen` members' values, per member name. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** WAYS remembered details per (encoder key id × STAGES + stage), most recently used first. */
  private memo = new Int32Array(0);
  private readonly keyTags = new Int32Array(KEY_SLOTS).fill(-1);
  private readonly keyIds = new Int32Array(KEY_SLOTS);

  /**
   * `keepRaw`: keep each line's text beside its row (a log the page cannot read back at an
   * offset); `added`: called after each row, to post full batches.
   */
  constructor(
    private readonly encoder: RowEncoder,
    private readonly keepRaw: boolean,
    private readonly added: () => void,
  ) {}

  take(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean {
    const rv = f.rv === undefined ? NaN : decimal(f.rv);
    const oldRv = f.oldRv === undefined ? NaN : decimal(f.oldRv);
    const len = u32(f.len);
    const worker = u32(f.worker);
    if (rv === undefined || oldRv === undefined || len < 0 || worker < 0 || at.line >= ABSENT) {
      return false;
    }
    const stage = STAGE_CODE[f.stage];
    const key = this.keyId(f.key, f.keyId);
    const detail = this.detailId(key * STAGES + stage, stage, this.collect(f, at, stage, f.srcId));
    this.encoder.addRow(at.seq, at.ts, stage, key, rv, oldRv, at.line, len, ABSENT, worker, detail);
    return this.rowAdded(text, start, end);
  }

  takeSynced(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean {
    if (at.line >= ABSENT) return false;
    const k = this.keyId(f.key, f.keyId);
    const detail = this.detailId(k * STAGES + DONE, DONE, this.collect(SYNCED, at, DONE, f.srcId));
    this.encoder.addRow(at.seq, at.ts, DONE, k, NaN, NaN, at.line, ABSENT, ABSENT, ABSENT, detail);
    return this.rowAdded(text, start, end);
  }

  /** After a row of the line text[start, end): its text kept if asked, the batch told. */
  private rowAdded(text: string, start: number, end: number): true {
    if (this.keepRaw) this.encoder.setRaw(text.slice(start, end));
    this.added();
    return true;
  }

  /** Fills `values` and `codes` with the line's detail members; returns how many there are. */
  private collect(f: object, at: LineContext, stage: number, srcId: number): number {
    const names = DETAIL_NAMES[stage];
    const codings = CODINGS[stage];
    const record = f as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      const how = codings[i];
      const v = how === Coding.Src ? at.src : record[names[i]];
      this.values[i] = v;
      let c = 0;
      if (v !== undefined) {
        if (how === Coding.Src) c = idCode(srcId);
        else if (how === Coding.Id) c = idCode(record[ID_NAMES[stage][i]] as number);
        else if (how === Coding.Number) c = (v as number) < MAX_CODE ? (v as number) + 1 : -1;
        else if (how === Coding.Boolean) c = v ? 2 : 1;
        else c = this.otherCode(names[i], v, how);
      }
      this.codes[i] = c;
    }
    return names.length;
  }

  /** The code of a value of a few: its place among the type's values, or as first seen. */
  private otherCode(name: string, v: unknown, how: Coding): number {
    if (how === Coding.OneOf) {
      return (FIELD_TYPES[name as FieldName] as readonly unknown[]).indexOf(v) + 1 || -1;
    }
    let seen = this.seen.get(name);
    if (seen === undefined) this.seen.set(name, (seen = new Map()));
    let c = seen.get(v as string);
    if (c === undefined && seen.size < MAX_SEEN) seen.set(v as string, (c = seen.size + 1));
    return c ?? -1;
  }

  /** The encoder's id of `key`, remembered by the reader's id of it (`id`, -1: none). */
  private keyId(key: string, id: number): number {
    if (id < 0) return this.encoder.keyId(key);
    const slot = id & (KEY_SLOTS - 1);
    if (this.keyTags[slot] === id) return this.keyIds[slot];
    const encoded = this.encoder.keyId(key);
    this.keyTags[slot] = id;
    this.keyIds[slot] = encoded;
    return encoded;
  }

  private detailId(slot: number, stage: number, n: number): number {
    const c = this.codes;
    let known = true;
    for (let i = 0; i < n; i++) if (c[i] < 0) known = false;
    if (!known) return this.encoder.detailId(this.text(stage, n));
    const at = slot * WAYS * STRIDE;
    if (at + WAYS * STRIDE > this.memo.length) this.grow(at + WAYS * STRIDE);
    const memo = this.memo;
    for (let w = 0; w < WAYS; w++) {
      const o = at + w * STRIDE;
      const id = memo[o + MAX_MEMBERS];
      if (id === 0) break;
      let i = 0;
      while (i < n && memo[o + i] === c[i]) i++;
      if (i < n) continue;
      if (w > 0) {
        // One step towards the front: the key's usual details are found first.
        const p = o - STRIDE;
        for (let k = 0; k < STRIDE; k++) {
          const x = memo[p + k];
          memo[p + k] = memo[o + k];
          memo[o + k] = x;
        }
      }
      return id;
    }
    const id = this.encoder.detailId(this.text(stage, n));
    // Forget the last way, and remember this one first.
    memo.copyWithin(at + STRIDE, at, at + (WAYS - 1) * STRIDE);
    for (let i = 0; i < n; i++) memo[at + i] = c[i];
    for (let i = n; i < MAX_MEMBERS; i++) memo[at + i] = 0;
    memo[at + MAX_MEMBERS] = id;
    return id;
  }

  /** The detail's JSON text, as RowEncoder.add builds it. */
  private text(stage: number, n: number): string {
    const names = DETAIL_NAMES[stage];
    const v = this.values;
    const members: string[] = [];
    for (let i = 0; i < n; i++) {
      const value = v[i];
      if (value === undefined) continue;
      // `fields` is the line's comma list; the event holds its parts.
      members.push(member(names[i], names[i] === "fields" ? fieldList(value as string) : value));
    }
    return `{${members.join(",")}}`;
  }

  private grow(needed: number): void {
    const next = new Int32Array(Math.max(needed, this.memo.length * 2));
    next.set(this.memo);
    this.memo = next;
  }
}
