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
import { KIND_FIELDS } from "../event-fields.ts";
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

/** What a klog row can carry: StageFields' members, and a synced line's outcome. */
const CARRIED = new Set([...Object.keys(stageFields()), "outcome"]);
/**
 * Per stage code: the detail's members, in the order RowEncoder.add meets them in the event —
 * the kind's fields in the field table's order that no column holds, then `src`. `collect` fills
 * them in this order (a test compares its rows with the general path's).
 */
const DETAIL_NAMES = KIND_CODES.map((k) => [
  ...KIND_FIELDS[k].filter(
    (f) => CARRIED.has(f) && !(NUMERIC_FIELDS as readonly string[]).includes(f),
  ),
  "src",
]);
const DONE = STAGE_CODE.done;
const STAGES = DETAIL_NAMES.length;
const MAX_MEMBERS = Math.max(...DETAIL_NAMES.map((names) => names.length));

/** Details remembered per key and stage (a key's writes alternate between a few). */
const WAYS = 4;
/** A remembered detail: its members' codes, then its id (0: an empty way). */
const STRIDE = MAX_MEMBERS + 1;
/** Codes are int32s: a count or an id past this is not remembered (its detail is rebuilt). */
const MAX_CODE = 0x7ffffffe;
/** Remembered key ids (the reader's id → the encoder's), by the reader's id's low bits. */
const KEY_SLOTS = 1 << 16;

/** Null-prototype: a kind spelled "constructor" is no code. */
const KIND = Object.assign(Object.create(null) as Record<string, number | undefined>, {
  Foo: 1,
  Deployment: 2,
});
const EVENT = { add: 1, update: 2, delete: 3 } as const;
const CAUSE = { watch: 1, resync: 2, retry: 3 } as const;
const VERB: Record<string, number> = {
  create: 1,
  update: 2,
  updateStatus: 3,
  patch: 4,
  delete: 5,
};

/** A u32 column's value: ABSENT for undefined, -1 for what the column cannot hold. */
function u32(v: number | undefined): number {
  return v === undefined ? ABSENT : v < ABSENT ? v : -1;
}

/** A string's code: 0 when absent, its id + 1, or -1 when it has no usable id. */
function idCode(v: string | undefined, id: number): number {
  return v === undefined ? 0 : id >= 0 && id < MAX_CODE ? id + 1 : -1;
}

/** A number's code: 0 when absent, the number + 1, or -1 past MAX_CODE. */
function numCode(v: number | undefined): number {
  return v === undefined ? 0 : v < MAX_CODE ? v + 1 : -1;
}

function boolCode(v: boolean | undefined): number {
  return v === undefined ? 0 : v ? 2 : 1;
}

export class KlogRows implements StageRowTaker {
  /** The current line's member values and their codes, in DETAIL_NAMES order. */
  private readonly values: unknown[] = new Array<unknown>(MAX_MEMBERS).fill(undefined);
  private readonly codes = new Int32Array(MAX_MEMBERS);
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
    const n = this.collect(f, at);
    const key = this.keyId(f.key, f.keyId);
    const detail = this.detailId(key * STAGES + stage, stage, n);
    this.encoder.addRow(at.seq, at.ts, stage, key, rv, oldRv, at.line, len, ABSENT, worker, detail);
    return this.rowAdded(text, start, end);
  }

  takeSynced(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean {
    if (at.line >= ABSENT) return false;
    this.values[0] = "synced";
    this.values[1] = at.src;
    this.codes[0] = 1;
    this.codes[1] = idCode(at.src, f.srcId);
    const k = this.keyId(f.key, f.keyId);
    const detail = this.detailId(k * STAGES + DONE, DONE, 2);
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
  private collect(f: StageFields, at: LineContext): number {
    const v = this.values;
    const c = this.codes;
    const src = idCode(at.src, f.srcId);
    switch (f.stage) {
      case "watch":
        v[0] = f.kind;
        v[1] = f.event;
        v[2] = f.name;
        v[3] = f.ns;
        v[4] = at.src;
        c[0] = f.kind === undefined ? 0 : (KIND[f.kind] ?? -1);
        c[1] = f.event === undefined ? 0 : EVENT[f.event];
        c[2] = idCode(f.name, f.nameId);
        c[3] = idCode(f.ns, f.nsId);
        c[4] = src;
        return 5;
      case "enqueue":
        v[0] = f.merged;
        v[1] = f.cause;
        v[2] = at.src;
        c[0] = f.merged === undefined ? 0 : f.merged === false ? 1 : f.merged === "dirty" ? 2 : 3;
        c[1] = f.cause === undefined ? 0 : CAUSE[f.cause];
        c[2] = src;
        return 3;
      case "dequeue":
        v[0] = at.src;
        c[0] = src;
        return 1;
      case "read":
        v[0] = f.generation;
        v[1] = f.found;
        v[2] = at.src;
        c[0] = numCode(f.generation);
        c[1] = boolCode(f.found);
        c[2] = src;
        return 3;
      case "write":
        v[0] = f.verb;
        v[1] = f.target;
        v[2] = f.code;
        v[3] = f.reason;
        v[4] = f.changed;
        v[5] = f.fields;
        v[6] = at.src;
        c[0] = f.verb === undefined ? 0 : (VERB[f.verb] ?? -1);
        c[1] = idCode(f.target, f.targetId);
        c[2] = numCode(f.code);
        c[3] = idCode(f.reason, f.reasonId);
        c[4] = boolCode(f.changed);
        c[5] = idCode(f.fields, f.fieldsId);
        c[6] = src;
        return 7;
    }
  }

  /** The encoder's id of `key`, remembered by the reader's id of it (`id`, -1: none). */
  private keyId(key: string, id: number): number {
    if (id < 0) return this.encoder.keyIds.id(key);
    const slot = id & (KEY_SLOTS - 1);
    if (this.keyTags[slot] === id) return this.keyIds[slot];
    const encoded = this.encoder.keyIds.id(key);
    this.keyTags[slot] = id;
    this.keyIds[slot] = encoded;
    return encoded;
  }

  private detailId(slot: number, stage: number, n: number): number {
    const c = this.codes;
    let known = true;
    for (let i = 0; i < n; i++) if (c[i] < 0) known = false;
    if (!known) return this.encoder.detailIds.id(this.text(stage, n));
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
    const id = this.encoder.detailIds.id(this.text(stage, n));
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
