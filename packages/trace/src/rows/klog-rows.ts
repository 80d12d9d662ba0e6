/**
 * The replay worker's row path for klog logs: a STAGE line, once packages/trace's reader has taken
 * it apart (readStageLine), goes from its fields straight into a row of the batch — no
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
 *   past u32) is declined: the line then becomes an event, encoded as events are.
 * - A detail is looked up by its members' codes: numbers for its strings (equal numbers, equal
 *   strings) and small values, and references to the row's key where a member names it (see
 *   key-refs.ts) — so a detail is shared by every Foo's lines alike. Its text is built only the
 *   first time.
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
import { KeyRefCodes } from "./key-refs.ts";
import { detach } from "../detach.ts";

/**
 * What a klog row can carry: StageFields' members but the three a line that becomes a row never
 * has (see KlogParser), and a synced line's outcome.
 */
const NEVER = new Set(["extra", "causeSeq", "delayMs"]);
const CARRIED = new Set([...Object.keys(stageFields()).filter((f) => !NEVER.has(f)), "outcome"]);
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
const MAX_MEMBERS = Math.max(...DETAIL_NAMES.map((names) => names.length));

/** A slot of the detail table: the stage + 1 (0: empty), its members' codes, the detail's id. */
const STRIDE = MAX_MEMBERS + 2;
/** Codes are int32s: a count or an id past this is not remembered (its detail is rebuilt). */
const MAX_CODE = 0x3ffffffe;
/** A member's code: absent, unknown (no detail is remembered for it), or a reference. */
const ABSENT_CODE = 0;
const UNKNOWN = -1;
/** A reference to the row's key: this minus its number (see KeyRefCodes). */
const REF_CODE = -2;

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

/** A source location's code: absent, its number + 1 (see StageFields.srcId), or unknown. */
function idCode(v: string | undefined, id: number): number {
  return v === undefined ? ABSENT_CODE : id >= 0 && id < MAX_CODE ? id + 1 : UNKNOWN;
}

/** A number's code: absent, the number + 1, or unknown past MAX_CODE. */
function numCode(v: number | undefined): number {
  return v === undefined ? ABSENT_CODE : v < MAX_CODE ? v + 1 : UNKNOWN;
}

function boolCode(v: boolean | undefined): number {
  return v === undefined ? 0 : v ? 2 : 1;
}

export class KlogRows implements StageRowTaker {
  /** The current line's member values and their codes, in DETAIL_NAMES order. */
  private readonly values: unknown[] = new Array<unknown>(MAX_MEMBERS).fill(undefined);
  private readonly codes = new Int32Array(MAX_MEMBERS);
  /**
   * The details met, by stage and their members' codes: open addressing, linear probing, at most
   * half full. Members that name the row's key are coded as references, so the details of a
   * Foo's lines are those of every other Foo's: a few dozen in a log of any size.
   */
  private table = new Int32Array(STRIDE * 64);
  private used = 0;
  private readonly refs = new KeyRefCodes();
  /** The strings met in details (a reason, a `fields=` list, a name not the key's), numbered. */
  private readonly strings = new Map<string, number>();

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
    const key = this.encoder.keyIds.id(f.key);
    const detail = this.detailId(stage, n, f.key);
    this.encoder.addRow(at.seq, at.ts, stage, key, rv, oldRv, at.line, len, ABSENT, worker, detail);
    return this.rowAdded(text, start, end);
  }

  takeSynced(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean {
    if (at.line >= ABSENT) return false;
    this.values[0] = "synced";
    this.values[1] = at.src;
    this.codes[0] = 1;
    this.codes[1] = idCode(at.src, f.srcId);
    const k = this.encoder.keyIds.id(f.key);
    const detail = this.detailId(DONE, 2, f.key);
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
        v[4] = f.initial;
        v[5] = at.src;
        c[0] = f.kind === undefined ? 0 : (KIND[f.kind] ?? -1);
        c[1] = f.event === undefined ? 0 : EVENT[f.event];
        c[2] = this.refCode(f.name, f.key);
        c[3] = this.refCode(f.ns, f.key);
        c[4] = boolCode(f.initial);
        c[5] = src;
        return 6;
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
        c[1] = this.refCode(f.target, f.key);
        c[2] = numCode(f.code);
        c[3] = this.valueCode(f.reason);
        c[4] = boolCode(f.changed);
        c[5] = this.valueCode(f.fields);
        c[6] = src;
        return 7;
    }
  }

  /**
   * The code of a member that may name the row's key (see key-refs.ts): a reference's when it
   * does, else the value's own.
   */
  private refCode(v: string | undefined, key: string): number {
    if (v === undefined) return ABSENT_CODE;
    const ref = this.refs.code(v, key);
    return ref < 0 ? this.valueCode(v) : REF_CODE - ref;
  }

  /** A string's code: absent, or its number among the values met (equal numbers, equal values). */
  private valueCode(v: string | undefined): number {
    if (v === undefined) return ABSENT_CODE;
    let n = this.strings.get(v);
    if (n === undefined) this.strings.set(detach(v), (n = this.strings.size + 1));
    return n < MAX_CODE ? n : UNKNOWN;
  }

  /** The id of the line's detail: its stage and the `n` members' codes, looked up or interned. */
  private detailId(stage: number, n: number, key: string): number {
    const c = this.codes;
    let h = Math.imul(stage + 1, 0x9e3779b1);
    for (let i = 0; i < n; i++) {
      if (c[i] === UNKNOWN) return this.encoder.detailIds.id(this.text(stage, n, key));
      h = Math.imul(h ^ c[i], 0x01000193);
    }
    const mask = this.table.length / STRIDE - 1;
    for (let s = (h ^ (h >>> 15)) & mask; ; s = (s + 1) & mask) {
      const at = s * STRIDE;
      const table = this.table;
      if (table[at] === 0) break;
      if (table[at] !== stage + 1) continue;
      let i = 0;
      while (i < n && table[at + 1 + i] === c[i]) i++;
      if (i === n) return table[at + STRIDE - 1];
    }
    const id = this.encoder.detailIds.id(this.text(stage, n, key));
    if (2 * (this.used + 1) > this.table.length / STRIDE) this.grow();
    this.place(h, stage, c, 0, n, id);
    return id;
  }

  /** Puts a detail in a free slot: its stage, its `n` codes from codes[from…], its id. */
  private place(
    h: number,
    stage: number,
    codes: Int32Array,
    from: number,
    n: number,
    id: number,
  ): void {
    const table = this.table;
    const mask = table.length / STRIDE - 1;
    let s = (h ^ (h >>> 15)) & mask;
    while (table[s * STRIDE] !== 0) s = (s + 1) & mask;
    const at = s * STRIDE;
    table[at] = stage + 1;
    for (let i = 0; i < n; i++) table[at + 1 + i] = codes[from + i];
    table[at + STRIDE - 1] = id;
    this.used++;
  }

  /** The detail's JSON text, as RowEncoder.add builds it. */
  private text(stage: number, n: number, key: string): string {
    const names = DETAIL_NAMES[stage];
    const v = this.values;
    const members: string[] = [];
    for (let i = 0; i < n; i++) {
      const value = v[i];
      if (value === undefined) continue;
      // `fields` is the line's comma list; the event holds its parts.
      const m = names[i] === "fields" ? fieldList(value as string) : value;
      members.push(member(names[i], m, key));
    }
    return `{${members.join(",")}}`;
  }

  /** Doubles the table, each detail placed anew. */
  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    this.used = 0;
    for (let at = 0; at < old.length; at += STRIDE) {
      const stage = old[at] - 1;
      if (stage < 0) continue;
      // A stage's details have one number of members (see collect).
      const n = DETAIL_NAMES[stage].length;
      let h = Math.imul(stage + 1, 0x9e3779b1);
      for (let i = 0; i < n; i++) h = Math.imul(h ^ old[at + 1 + i], 0x01000193);
      this.place(h, stage, old, at + 1, n, old[at + STRIDE - 1]);
    }
  }
}
