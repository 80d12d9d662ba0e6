/**
 * The replay worker's fast path for loopscope's own JSONL: a record line as loopscope writes it
 * (`JSON.stringify` of an event: no whitespace, known fields only, integers, strings as it escapes them)
 * goes from the file's bytes straight into a row of the batch — no text decoding, no JSON.parse,
 * no event object, no encoding. It was most of a big file's load: a million records spent ~5 s
 * as strings and objects in the worker, on a core the page and the analysis needed.
 *
 * Invariants:
 * - A line this path takes becomes the row the general path (TraceReader's decodeEvent, then
 *   RowEncoder.add) would make of it: the same columns, the same key and detail ids (the detail
 *   text is the line's own bytes of the fields outside the row, a value that names the key
 *   written as a reference to it: exactly the text the encoder would build). A test compares the
 *   two paths on generated and corrupted lines.
 * - Anything else — other spellings of JSON (spaces, other escapes, floats), an unknown or
 *   invalid field, a missing or decreasing seq, the first record — is declined (`read` returns
 *   false and changes nothing) and the caller hands the line to the general path.
 */
import type { TraceEvent } from "../event.ts";
import {
  FIELD_TYPES,
  KNOWN_FIELDS,
  REQUIRED_FIELDS,
  UNKEYED_KINDS,
  type FieldName,
} from "../event-fields.ts";
import { ABSENT, KIND_CODES, NUMERIC_FIELDS, type RowEncoder } from "./row-encoder.ts";
import { HASH_SEED, type BatchIds } from "./batch-ids.ts";
import { KEY_REF_FIELDS } from "./key-refs.ts";

/**
 * Every field name a record may carry, by index. More than 32: a field's properties are looked up
 * in tables by its index, not tested as a bit of a 32-bit mask.
 */
const FIELDS = Object.keys(FIELD_TYPES) as FieldName[];
type Field = FieldName;
const F = Object.fromEntries(FIELDS.map((f, i) => [f, i])) as Record<Field, number>;
/** 1 at the index of each field named, 0 elsewhere. */
const flags = (...fs: Field[]) => Uint8Array.from(FIELDS, (f) => (fs.includes(f) ? 1 : 0));
const typed = (t: string) => FIELDS.filter((f) => FIELD_TYPES[f] === t);

/** Fields of the row itself (the rest is the detail; `raw` goes beside the row, as a string). */
const ROW_FIELDS: Field[] = ["seq", "ts", "key", "stage", "raw", ...NUMERIC_FIELDS];
const ROW = flags(...ROW_FIELDS);
const STRINGS = flags(...typed("string").filter((f) => !ROW_FIELDS.includes(f)));
const INTEGERS = flags(...typed("number").filter((f) => !ROW_FIELDS.includes(f)));
const BOOLEANS = flags(...typed("boolean"));
/** Fields whose value may name the row's key (see key-refs.ts). */
const REFS = flags(...KEY_REF_FIELDS);

/** Values a field must have, for the enum-like ones (`merged` may also be `false`). */
const ONE_OF = FIELDS.map((f) => {
  const t: unknown = FIELD_TYPES[f];
  return Array.isArray(t) ? t.filter((v): v is string => typeof v === "string") : undefined;
});

/** Stages by code (their index), as the store's stage column holds them. */
const STAGE_NAMES: readonly TraceEvent["stage"][] = KIND_CODES;
/** Per stage code: the fields it knows, the fields it requires, and how many those are. */
const KNOWN = STAGE_NAMES.map((s) => flags(...([...KNOWN_FIELDS[s]] as Field[])));
const REQUIRED = STAGE_NAMES.map((s) => flags("ts", "key", "seq", ...REQUIRED_FIELDS[s]));
const REQUIRED_COUNT = REQUIRED.map((r) => r.reduce((n, x) => n + x, 0));

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const NAME_BYTES = FIELDS.map(ascii);
const STAGE_BYTES = STAGE_NAMES.map(ascii);
/** Stages whose records may have an empty key, by stage code. */
const UNKEYED = STAGE_NAMES.map((s) => UNKEYED_KINDS.has(s));
const ONE_OF_BYTES = ONE_OF.map((words) => words?.map(ascii));

/**
 * Field index + 1 by a name's length, first and last letter (which tell the names apart; the
 * bytes are compared all the same), 0 for no field.
 */
const NAME_TABLE = new Int8Array(16 << 14);
const nameSlot = (len: number, first: number, last: number) =>
  ((len & 15) << 14) | ((first & 127) << 7) | (last & 127);
FIELDS.forEach((f, i) => {
  const slot = nameSlot(f.length, f.charCodeAt(0), f.charCodeAt(f.length - 1));
  if (NAME_TABLE[slot] !== 0)
    throw new Error(`jsonlRows: ${f} and ${FIELDS[NAME_TABLE[slot] - 1]}`);
  NAME_TABLE[slot] = i + 1;
});

const enum Value {
  String,
  Integer,
  True,
  False,
  List,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const LIST_OPEN = 0x5b;
const LIST_CLOSE = 0x5d;
const MAX_FIELDS = 32;
const SLASH = 0x2f;
/**
 * A reference's text (see key-refs.ts) around its before and after texts, as JSON.stringify
 * spells it.
 */
const REF_OPEN = {
  key: ascii('{"ref":"key","before":"'),
  ns: ascii('{"ref":"ns","before":"'),
  name: ascii('{"ref":"name","before":"'),
};
const REF_AFTER = ascii('","after":"');
const REF_CLOSE = ascii('"}');

/** Whether the last string `stringEnd` passed held an escape. */
let escaped = false;

/**
 * Past the closing quote of the string starting at `i` (a quote), or -1 for one that is not
 * spelled as JSON.stringify spells it: escapes other than its short ones, raw control characters.
 * Non-ASCII bytes are UTF-8, decoded as the general path's TextDecoder decodes them.
 */
function stringEnd(b: Uint8Array, i: number, to: number): number {
  escaped = false;
  for (i++; i < to; i++) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      const x = b[++i];
      // \" \\ \b \f \n \r \t: JSON.stringify's own escapes (others it spells \u00XX).
      if (
        x !== QUOTE &&
        x !== BACKSLASH &&
        x !== 0x62 &&
        x !== 0x66 &&
        x !== 0x6e &&
        x !== 0x72 &&
        x !== 0x74
      )
        return -1;
      escaped = true;
    }
  }
  return -1;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Whether b[from, to) spells `word`. */
function spells(b: Uint8Array, from: number, to: number, word: Uint8Array): boolean {
  if (to - from !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (b[from + i] !== word[i]) return false;
  return true;
}

/** The value of the digits b[from, to) (at most 16 of them, checked by the caller). */
function digits(b: Uint8Array, from: number, to: number): number {
  let x = 0;
  for (let i = from; i < to; i++) x = x * 10 + (b[i] - 0x30);
  return x;
}

export class JsonlRows {
  private readonly keyIds: BatchIds;
  private readonly detailIds: BatchIds;
  private detail = new Uint8Array(256);
  private used = 0;
  private hash = HASH_SEED;
  // One line's fields, as found: which field, where its member and its value start and end.
  private readonly field = new Int32Array(MAX_FIELDS);
  private readonly member = new Int32Array(MAX_FIELDS);
  private readonly start = new Int32Array(MAX_FIELDS);
  private readonly end = new Int32Array(MAX_FIELDS);
  private readonly type = new Uint8Array(MAX_FIELDS);
  private readonly escapedAt = new Uint8Array(MAX_FIELDS);
  /** Per field, the number of the line scanned last that gave it (see scan). */
  private readonly seenIn = new Float64Array(FIELDS.length);
  private lines = 0;
  private readonly text = new TextDecoder();

  /** `take(seq, ts)`: whether the general reader lets this record be taken as is (and counts it). */
  constructor(
    private readonly encoder: RowEncoder,
    private readonly take: (seq: number, ts: number) => boolean,
  ) {
    this.keyIds = encoder.keyIds;
    this.detailIds = encoder.detailIds;
  }

  /** Reads the line b[from, to) ("\n" excluded) into a row, or declines it (false). */
  read(b: Uint8Array, from: number, to: number): boolean {
    const n = this.scan(b, from, to);
    if (n < 0) return false;
    const stageAt = this.indexOf(F.stage, n);
    if (stageAt < 0 || this.type[stageAt] !== Value.String) return false;
    const stage = this.stageCode(b, this.start[stageAt] + 1, this.end[stageAt] - 1);
    if (stage < 0) return false;
    // Each field once (scan saw to it): the required ones are all there when all are counted.
    const known = KNOWN[stage];
    const required = REQUIRED[stage];
    let requiredSeen = 0;
    for (let k = 0; k < n; k++) {
      const f = this.field[k];
      if (known[f] === 0) return false;
      requiredSeen += required[f];
    }
    if (requiredSeen !== REQUIRED_COUNT[stage]) return false;

    let seq = 0;
    let ts = 0;
    let keyAt = -1;
    let rv = NaN;
    let oldRv = NaN;
    let line = ABSENT;
    let len = ABSENT;
    let causeSeq = ABSENT;
    let worker = ABSENT;
    let rawAt = -1;
    let members = 0;
    for (let k = 0; k < n; k++) {
      const f = this.field[k];
      const t = this.type[k];
      const s = this.start[k];
      const e = this.end[k];
      if (ROW[f] !== 0) {
        switch (f) {
          case F.seq:
            if (t !== Value.Integer || e - s > 15) return false;
            seq = digits(b, s, e);
            if (seq < 1) return false;
            break;
          case F.ts:
            if (t !== Value.Integer || e - s > 16) return false;
            ts = digits(b, s, e);
            if (ts > Number.MAX_SAFE_INTEGER) return false;
            break;
          case F.key:
            // An escape would have to be undone to find the key's text: the general path does.
            if (t !== Value.String || this.escapedAt[k]) return false;
            keyAt = k;
            break;
          case F.stage:
            break;
          case F.rv:
          case F.oldRv: {
            // A string the column holds exactly: a canonical decimal of at most 15 digits.
            if (t !== Value.String || e - s < 3 || e - s > 17) return false;
            if (b[s + 1] === 0x30 && e - s > 3) return false;
            for (let i = s + 1; i < e - 1; i++) if (!isDigit(b[i])) return false;
            if (f === F.rv) rv = digits(b, s + 1, e - 1);
            else oldRv = digits(b, s + 1, e - 1);
            break;
          }
          case F.line:
          case F.len:
          case F.causeSeq:
          case F.worker: {
            if (t !== Value.Integer || e - s > 15) return false;
            const v = digits(b, s, e);
            if (v >= ABSENT) return false;
            if (f === F.line) line = v;
            else if (f === F.len) len = v;
            else if (f === F.causeSeq) causeSeq = v;
            else worker = v;
            break;
          }
          default: // raw: the log line a text-log source read the event from
            if (t !== Value.String) return false;
            rawAt = k;
            break;
        }
        continue;
      }
      if (!this.valid(f, t, b, s, e)) return false;
      members++;
    }
    // An empty key names no Foo: fine on a watch (an object no Foo owns) or a note; anywhere else
    // the general path reports the record.
    if (this.end[keyAt] - this.start[keyAt] === 2 && !UNKEYED[stage]) return false;
    // A key that is not ASCII may hold bytes that are not UTF-8: the general path tells.
    if (!isAscii(b, this.start[keyAt], this.end[keyAt])) return false;
    if (!this.take(seq, ts)) return false;
    // Interned only now: a declined line must leave no trace, not even a string id.
    const key = this.keyIds.idOfBytes(b, this.start[keyAt] + 1, this.end[keyAt] - 1);
    const detail = members === 0 ? 0 : this.detailId(b, n, keyAt);
    this.encoder.addRow(seq, ts, stage, key, rv, oldRv, line, len, causeSeq, worker, detail);
    if (rawAt >= 0) this.encoder.setRaw(this.stringAt(b, rawAt));
    return true;
  }

  /** The value of the line's string field `k`, as JSON.parse of the whole line would give it. */
  private stringAt(b: Uint8Array, k: number): string {
    const s = this.start[k];
    const e = this.end[k];
    if (this.escapedAt[k]) return JSON.parse(this.decode(b, s, e)) as string;
    return this.decode(b, s + 1, e - 1);
  }

  /** b[from, to) as text (UTF-8, as the general path's TextDecoder reads it). */
  private decode(b: Uint8Array, from: number, to: number): string {
    if (to - from <= 1024) {
      let high = 0;
      for (let i = from; i < to; i++) high |= b[i];
      // ASCII: one short string of the char codes, without the decoder's per-call cost.
      if (high < 0x80)
        return String.fromCharCode.apply(null, b.subarray(from, to) as unknown as number[]);
    }
    return this.text.decode(b.subarray(from, to));
  }

  /** Finds the fields of a flat JSON object spelled as loopscope writes it; their count, or -1. */
  private scan(b: Uint8Array, from: number, to: number): number {
    if (to - from < 2 || b[from] !== OPEN || b[to - 1] !== CLOSE) return -1;
    let i = from + 1;
    let n = 0;
    // The fields this line gave are those whose `seenIn` is this line's number.
    const line = ++this.lines;
    for (;;) {
      if (b[i] !== QUOTE || n === MAX_FIELDS) return -1;
      const nameEnd = stringEnd(b, i, to);
      if (nameEnd < 0) return -1;
      const f = this.fieldAt(b, i + 1, nameEnd - 1);
      if (f < 0 || this.seenIn[f] === line) return -1; // unknown, or given twice
      this.seenIn[f] = line;
      if (b[nameEnd] !== COLON) return -1;
      const s = nameEnd + 1;
      const c = b[s];
      let e: number;
      let t: Value;
      let esc = false;
      if (c === QUOTE) {
        e = stringEnd(b, s, to);
        esc = escaped;
        t = Value.String;
      } else if (isDigit(c)) {
        e = s + 1;
        if (c !== 0x30) while (isDigit(b[e])) e++;
        t = Value.Integer;
      } else if (c === 0x74 && b[s + 1] === 0x72 && b[s + 2] === 0x75 && b[s + 3] === 0x65) {
        e = s + 4;
        t = Value.True;
      } else if (
        c === 0x66 &&
        b[s + 1] === 0x61 &&
        b[s + 2] === 0x6c &&
        b[s + 3] === 0x73 &&
        b[s + 4] === 0x65
      ) {
        e = s + 5;
        t = Value.False;
      } else if (c === LIST_OPEN) {
        e = s + 1;
        if (b[e] !== LIST_CLOSE) {
          for (;;) {
            if (b[e] !== QUOTE) return -1;
            e = stringEnd(b, e, to);
            if (e < 0) return -1;
            if (b[e] !== COMMA) break;
            e++;
          }
          if (b[e] !== LIST_CLOSE) return -1;
        }
        e++;
        t = Value.List;
      } else return -1;
      if (e < 0) return -1;
      this.field[n] = f;
      this.member[n] = i;
      this.start[n] = s;
      this.end[n] = e;
      this.type[n] = t;
      this.escapedAt[n] = esc ? 1 : 0;
      n++;
      if (b[e] === COMMA) i = e + 1;
      else if (b[e] === CLOSE && e === to - 1) return n;
      else return -1; // a float, an exponent, or anything after the value
    }
  }

  private fieldAt(b: Uint8Array, from: number, to: number): number {
    if (to - from > 15 || to === from) return -1;
    const f = NAME_TABLE[nameSlot(to - from, b[from], b[to - 1])] - 1;
    return f >= 0 && spells(b, from, to, NAME_BYTES[f]) ? f : -1;
  }

  private indexOf(f: number, n: number): number {
    for (let k = 0; k < n; k++) if (this.field[k] === f) return k;
    return -1;
  }

  private stageCode(b: Uint8Array, from: number, to: number): number {
    for (let s = 0; s < STAGE_BYTES.length; s++) if (spells(b, from, to, STAGE_BYTES[s])) return s;
    return -1;
  }

  /** Whether a detail field's value is one decodeEvent keeps on the event (else: `extra`). */
  private valid(f: number, t: Value, b: Uint8Array, s: number, e: number): boolean {
    if (STRINGS[f] !== 0) return t === Value.String;
    // At most 15 digits: String(n) of the parsed number spells the same digits.
    if (INTEGERS[f] !== 0) return t === Value.Integer && e - s <= 15;
    if (BOOLEANS[f] !== 0) return t === Value.True || t === Value.False;
    if (f === F.fields) return t === Value.List;
    const words = ONE_OF_BYTES[f];
    if (words === undefined) return false;
    if (f === F.merged && t === Value.False) return true;
    if (t !== Value.String) return false;
    for (const w of words) if (spells(b, s + 1, e - 1, w)) return true;
    return false;
  }

  /**
   * The id of the line's detail: its members outside the row, as `{m1,m2,…}`, each copied from
   * the line but for a value that names the key (field `keyAt`), which becomes a reference to it.
   * Hashed as it is built, and looked up by its bytes: details are few (they are shared by every
   * Foo's lines), so the table stays in cache.
   */
  private detailId(b: Uint8Array, n: number, keyAt: number): number {
    this.used = 0;
    this.hash = HASH_SEED;
    const ks = this.start[keyAt] + 1;
    const ke = this.end[keyAt] - 1;
    for (let k = 0; k < n; k++) {
      const f = this.field[k];
      if (ROW[f] !== 0) continue;
      this.put1(this.used === 0 ? OPEN : COMMA);
      const from = this.member[k];
      const s = this.start[k];
      const to = this.end[k];
      if (REFS[f] === 0 || !this.putRef(b, from, s + 1, to - 1, ks, ke)) {
        this.put(b, from, to);
      }
    }
    this.put1(CLOSE);
    return this.detailIds.idOf(this.detailIds.entry(this.detail, 0, this.used, this.hash));
  }

  /**
   * Puts member b[from, vs - 1) (its name and colon) and, for its string value b[vs, ve) when it
   * names the key b[ks, ke), a reference to it, as keyRefOf decides. Whether it did.
   */
  private putRef(
    b: Uint8Array,
    from: number,
    vs: number,
    ve: number,
    ks: number,
    ke: number,
  ): boolean {
    if (ke === ks) return false;
    let open = REF_OPEN.key;
    let at = find(b, vs, ve, ks, ke);
    let partEnd = at + (ke - ks);
    if (at < 0) {
      let slash = ks;
      while (slash < ke && b[slash] !== SLASH) slash++;
      if (slash === ke || slash === ks || slash === ke - 1) return false;
      at = vs;
      partEnd = ve;
      if (same(b, vs, ve, slash + 1, ke)) open = REF_OPEN.name;
      else if (same(b, vs, ve, ks, slash)) open = REF_OPEN.ns;
      else {
        at = quoted(b, vs, ve, slash + 1, ke);
        if (at < 0) return false;
        partEnd = at + (ke - slash - 1);
        open = REF_OPEN.name;
      }
    }
    this.put(b, from, vs - 1);
    this.putBytes(open);
    this.put(b, vs, at);
    this.putBytes(REF_AFTER);
    this.put(b, partEnd, ve);
    this.putBytes(REF_CLOSE);
    return true;
  }

  private put1(c: number): void {
    if (this.used === this.detail.length) this.room(1);
    this.detail[this.used++] = c;
    this.hash = Math.imul(this.hash ^ c, 0x01000193);
  }

  private put(b: Uint8Array, from: number, to: number): void {
    if (this.used + (to - from) > this.detail.length) this.room(to - from);
    const out = this.detail;
    let d = this.used;
    let h = this.hash;
    for (let i = from; i < to; i++) {
      const c = b[i];
      out[d++] = c;
      h = Math.imul(h ^ c, 0x01000193);
    }
    this.used = d;
    this.hash = h;
  }

  private putBytes(word: Uint8Array): void {
    this.put(word, 0, word.length);
  }

  private room(n: number): void {
    const next = new Uint8Array((this.used + n) * 2);
    next.set(this.detail.subarray(0, this.used));
    this.detail = next;
  }
}

/**
 * Where the text b[p, p2) (no escapes: a key or a part of one) first is in the JSON string value
 * whose bytes are b[vs, ve), or -1. A place right after an escaping backslash is no place: `\n/x`
 * holds no "n/x".
 */
function find(b: Uint8Array, vs: number, ve: number, p: number, p2: number): number {
  const n = p2 - p;
  for (let at = vs; at + n <= ve; at++) {
    let i = 0;
    while (i < n && b[at + i] === b[p + i]) i++;
    if (i < n) continue;
    let slashes = 0;
    while (at - slashes > vs && b[at - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * Where the text b[p, p2) (no quote or backslash: a key's name) first is in double quotes in the
 * JSON string value b[vs, ve), or -1: between an escaped quote before it and one after it.
 */
function quoted(b: Uint8Array, vs: number, ve: number, p: number, p2: number): number {
  const n = p2 - p;
  for (let at = vs + 1; at + n + 1 < ve; at++) {
    if (b[at - 1] !== QUOTE || b[at + n] !== BACKSLASH || b[at + n + 1] !== QUOTE) continue;
    let i = 0;
    while (i < n && b[at + i] === b[p + i]) i++;
    if (i === n) return at;
  }
  return -1;
}

/** Whether b[a, a2) and b[c, c2) hold the same bytes. */
function same(b: Uint8Array, a: number, a2: number, c: number, c2: number): boolean {
  if (a2 - a !== c2 - c) return false;
  for (let i = 0; i < a2 - a; i++) if (b[a + i] !== b[c + i]) return false;
  return true;
}

/** Whether b[from, to) is ASCII. */
function isAscii(b: Uint8Array, from: number, to: number): boolean {
  let high = 0;
  for (let i = from; i < to; i++) high |= b[i];
  return high < 0x80;
}
