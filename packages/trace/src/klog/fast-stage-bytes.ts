/**
 * fastStage on a line's bytes: the canonical STAGE line (`STAGE/<stage> key=value …`, bare values,
 * canonical key names) read without touching its decoded text except to cut the values an event
 * keeps. Keys, targets, names and namespaces come from an Interner (one string per distinct
 * value); verbs, kinds, watch events and causes are constants.
 *
 * Invariants:
 * - `bytes[from, end)` and `text[from, end)` are the same characters at the same offsets (ASCII
 *   bytes, or bytes the decoder replaced one for one): every decision is taken on bytes compared
 *   with ASCII, which a non-ASCII byte and its replacement character both fail alike.
 * - Whenever it returns an event, that event is the one fastStage (and so the general parser)
 *   builds from the same line, with the same properties in the same order. It may decline more
 *   often than fastStage (a repeated key, an unusual value): the caller then takes the general
 *   path, which answers the same either way.
 */
import type { TraceEvent, UnsequencedEvent } from "../event.ts";
import type { LineContext } from "./fast-stage.ts";
import type { Interner } from "./interner.ts";
import { fieldList, type StageFields, type StageName } from "./stage-fields.ts";
import { indexOfEither, viewOf } from "./byte-span.ts";

/** Ids of the canonical keys, a bit each in `seen`. */
const K = {
  key: 0,
  rv: 1,
  oldRv: 2,
  len: 3,
  worker: 4,
  generation: 5,
  code: 6,
  kind: 7,
  event: 8,
  name: 9,
  ns: 10,
  verb: 11,
  target: 12,
  reason: 13,
  cause: 14,
  found: 15,
  changed: 16,
  fields: 17,
  merged: 18,
} as const;
type K = (typeof K)[keyof typeof K];

/** The keys each stage takes (bit 1 << K); a line with any other key goes the general way. */
const WATCH_KEYS = bits(K.key, K.rv, K.oldRv, K.kind, K.event, K.name, K.ns);
const ENQUEUE_KEYS = bits(K.key, K.len, K.cause, K.merged);
const DEQUEUE_KEYS = bits(K.key, K.len, K.worker);
const READ_KEYS = bits(K.key, K.rv, K.generation, K.found, K.worker);
const WRITE_KEYS = bits(
  K.key,
  K.verb,
  K.target,
  K.code,
  K.reason,
  K.rv,
  K.changed,
  K.fields,
  K.worker,
);

function bits(...ks: K[]): number {
  let b = 0;
  for (const k of ks) b |= 1 << k;
  return b;
}

/** Up to six ASCII characters as one number (exact: 48 bits), little-endian, as `packedAt` reads them. */
function packed(name: string): number {
  let x = 0;
  for (let i = name.length - 1; i >= 0; i--) x = x * 256 + name.charCodeAt(i);
  return x;
}

/** The 1 to 6 bytes at i, packed (see `packed`): one or two loads instead of a loop. */
function packedAt(view: DataView, i: number, len: number): number {
  switch (len) {
    case 1:
      return view.getUint8(i);
    case 2:
      return view.getUint16(i, true);
    case 3:
      return view.getUint16(i, true) + view.getUint8(i + 2) * 0x10000;
    case 4:
      return view.getUint32(i, true);
    case 5:
      return view.getUint32(i, true) + view.getUint8(i + 4) * 2 ** 32;
    default:
      return view.getUint32(i, true) + view.getUint16(i + 4, true) * 2 ** 32;
  }
}

const P = {
  rv: packed("rv"),
  ns: packed("ns"),
  key: packed("key"),
  len: packed("len"),
  code: packed("code"),
  kind: packed("kind"),
  name: packed("name"),
  verb: packed("verb"),
  oldRv: packed("oldRv"),
  event: packed("event"),
  cause: packed("cause"),
  found: packed("found"),
  worker: packed("worker"),
  target: packed("target"),
  reason: packed("reason"),
  fields: packed("fields"),
  merged: packed("merged"),
};

/** A constant value of up to 12 ASCII characters, packed to be compared with bytes (see `is`). */
interface Spelling<T extends string> {
  text: T;
  head: number;
  tail: number;
}

function spelling<T extends string>(text: T): Spelling<T> {
  return { text, head: packed(text.slice(0, 6)), tail: packed(text.slice(6)) };
}

/** Whether bytes[a, b) (`view` over them) spell `s`. */
function is(view: DataView, a: number, b: number, s: Spelling<string>): boolean {
  const len = b - a;
  if (len !== s.text.length) return false;
  if (len <= 6) return packedAt(view, a, len) === s.head;
  return packedAt(view, a, 6) === s.head && packedAt(view, a + 6, len - 6) === s.tail;
}

const V = {
  Foo: spelling("Foo"),
  Deployment: spelling("Deployment"),
  add: spelling("add"),
  update: spelling("update"),
  delete: spelling("delete"),
  updateStatus: spelling("updateStatus"),
  create: spelling("create"),
  patch: spelling("patch"),
  watch: spelling("watch"),
  resync: spelling("resync"),
  retry: spelling("retry"),
  processing: spelling("processing"),
  dirty: spelling("dirty"),
  true: spelling("true"),
  false: spelling("false"),
  changed: spelling("changed"),
  generation: spelling("generation"),
};

/** A stage's name, and its row in a FieldOrder. */
interface StageSpelling extends Spelling<StageName> {
  row: number;
}

function stageSpelling(text: StageName, row: number): StageSpelling {
  return { ...spelling(text), row };
}

const STAGE_SPELLINGS = {
  watch: stageSpelling("watch", 0),
  write: stageSpelling("write", 1),
  enqueue: stageSpelling("enqueue", 2),
  dequeue: stageSpelling("dequeue", 3),
  read: stageSpelling("read", 4),
} satisfies Record<StageName, StageSpelling>;

/** Fields per stage that a FieldOrder remembers. */
const ORDERED_FIELDS = 12;

/**
 * The keys of the last canonical line of each stage, in order (-1: none), refilled as lines are
 * read. A producer writes its fields in the same order every time, so the field at the same place
 * in the next line of that stage is tried first: a compare or two instead of a search for "="
 * and a lookup of the key. A wrong guess costs the compare; the answer is the same either way.
 */
export function fieldOrder(): Int8Array {
  return new Int8Array(5 * ORDERED_FIELDS).fill(-1);
}

/**
 * The canonical key spelled at bytes[i, i + len) (`view` over the same bytes), or -1: its bytes
 * are read as whole words and compared as numbers, not one by one.
 */
function keyAt(view: DataView, i: number, len: number): K | -1 {
  switch (len) {
    case 2: {
      const x = packedAt(view, i, 2);
      return x === P.rv ? K.rv : x === P.ns ? K.ns : -1;
    }
    case 3: {
      const x = packedAt(view, i, 3);
      return x === P.key ? K.key : x === P.len ? K.len : -1;
    }
    case 4: {
      const x = packedAt(view, i, 4);
      if (x === P.code) return K.code;
      if (x === P.kind) return K.kind;
      if (x === P.name) return K.name;
      return x === P.verb ? K.verb : -1;
    }
    case 5: {
      const x = packedAt(view, i, 5);
      if (x === P.oldRv) return K.oldRv;
      if (x === P.event) return K.event;
      if (x === P.cause) return K.cause;
      return x === P.found ? K.found : -1;
    }
    case 6: {
      const x = packedAt(view, i, 6);
      if (x === P.worker) return K.worker;
      if (x === P.target) return K.target;
      if (x === P.reason) return K.reason;
      if (x === P.merged) return K.merged;
      return x === P.fields ? K.fields : -1;
    }
    case 7:
      return is(view, i, i + 7, V.changed) ? K.changed : -1;
    case 10:
      return is(view, i, i + 10, V.generation) ? K.generation : -1;
    default:
      return -1;
  }
}

/** Each canonical key's name and "=", by K: what a FieldOrder's guess is checked against. */
const NAMED: Spelling<string>[] = (Object.entries(K) as [keyof typeof K, K][]).reduce<
  Spelling<string>[]
>((all, [name, k]) => {
  all[k] = spelling(`${name}=`);
  return all;
}, []);

/** The decimal number bytes[a, b) (1 to 15 digits), or -1. */
function int(bytes: Uint8Array, a: number, b: number): number {
  if (b - a >= 16) return -1;
  let x = 0;
  for (let i = a; i < b; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return -1;
    x = x * 10 + d;
  }
  return x;
}

/** A boolean spelled "true" or "false", else undefined. */
function bool(view: DataView, a: number, b: number): boolean | undefined {
  if (is(view, a, b, V.true)) return true;
  if (is(view, a, b, V.false)) return false;
  return undefined;
}

function stageAt(
  bytes: Uint8Array,
  view: DataView,
  i: number,
  end: number,
): StageSpelling | undefined {
  const c = bytes[i];
  let s: StageSpelling;
  if (c === 119) s = bytes[i + 1] === 97 ? STAGE_SPELLINGS.watch : STAGE_SPELLINGS.write;
  else if (c === 101) s = STAGE_SPELLINGS.enqueue;
  else if (c === 100) s = STAGE_SPELLINGS.dequeue;
  else if (c === 114) s = STAGE_SPELLINGS.read;
  else return undefined;
  const n = i + s.text.length;
  return n < end && bytes[n] === 32 && is(view, i, n, s) ? s : undefined;
}

/**
 * Reads the STAGE line whose tag starts at `from` and that ends at `end` (before its "\n" or
 * "\r\n"); the line starts at `lineStart` (its text is the event's `raw`), `at` is where it was
 * read. The event is whole, numbered with `at.seq`, and its key is left in `at.key`. Undefined:
 * take the general path.
 * With `rows`, the line is first offered to it as `fields` (refilled here): null when it took the
 * line as a row of its own, and no event is made.
 */
export function fastStageBytes(
  bytes: Uint8Array,
  text: string,
  from: number,
  end: number,
  strings: Interner,
  at: LineContext,
  lineStart: number,
  rows?: RowOffer,
  /** A view of `bytes` (made here when not given). */
  view: DataView = viewOf(bytes),
  /** The fields of the lines before (see fieldOrder), to guess this line's keys from. */
  order?: Int8Array,
): TraceEvent | undefined | null {
  let i = from + 6;
  const spelt = stageAt(bytes, view, i, end);
  if (spelt === undefined) return undefined;
  const stage = spelt.text;
  i += stage.length;
  /** Where this field's key is remembered in `order`. */
  let field = spelt.row * ORDERED_FIELDS;
  const lastField = field + ORDERED_FIELDS;
  let key: string | undefined;
  /** Where the key's value lies, for a watch line's name and namespace. */
  let keyStart = 0;
  let keyEnd = 0;
  let rv: string | undefined;
  let oldRv: string | undefined;
  let len: number | undefined;
  let worker: number | undefined;
  let kind: "Foo" | "Deployment" | undefined;
  let event: "add" | "update" | "delete" | undefined;
  let name: string | undefined;
  let ns: string | undefined;
  let verb: string | undefined;
  let target: string | undefined;
  /** Where the target's value lies (-1: none); it is interned once the key is known. */
  let targetStart = 0;
  let targetEnd = -1;
  let code: number | undefined;
  let reason: string | undefined;
  let generation: number | undefined;
  let found: boolean | undefined;
  let changed: boolean | undefined;
  let fields: string | undefined;
  let cause: "watch" | "resync" | "retry" | undefined;
  let merged: false | "dirty" | "processing" | undefined;
  // The Interner's ids of the strings above (see Interner.lastId), for a row taker to compare.
  let keyId = -1;
  let nameId = -1;
  let nsId = -1;
  let targetId = -1;
  let reasonId = -1;
  let fieldsId = -1;
  let seen = 0;
  while (i < end) {
    while (i < end && bytes[i] === 32) i++;
    if (i >= end) break;
    const ks = i;
    let k: K | -1 = order !== undefined && field < lastField ? (order[field] as K | -1) : -1;
    let eq: number;
    const named = k < 0 ? undefined : NAMED[k];
    if (
      named !== undefined &&
      ks + named.text.length <= end &&
      is(view, ks, ks + named.text.length, named)
    ) {
      eq = ks + named.text.length - 1;
    } else {
      eq = indexOfEither(view, bytes, i, end, 61, 32); // "=", " "
      if (eq >= end || bytes[eq] !== 61 || eq === ks) return undefined; // a positional word
      k = keyAt(view, ks, eq - ks);
      if (k < 0) return undefined;
      if (order !== undefined && field < lastField) order[field] = k;
    }
    field++;
    const a = eq + 1;
    const b = indexOfEither(view, bytes, a, end, 32, 9); // " ", "\t"
    if (b < end && bytes[b] === 9) return undefined; // the general path splits on tabs too
    i = b;
    if (a < end) {
      const c = bytes[a];
      if (c === 34 || c === 123 || c === 91) return undefined; // quoted or JSON value
    }
    if (a === b) {
      // An empty value is absent, except an empty key: a watch event that resolved to no Foo.
      if (k === K.key) key = "";
      continue;
    }
    seen |= 1 << k;
    switch (k) {
      case K.key:
        key = strings.key(bytes, text, a, b);
        keyId = strings.lastId;
        keyStart = a;
        keyEnd = b;
        break;
      case K.rv:
        rv = text.slice(a, b);
        break;
      case K.oldRv:
        oldRv = text.slice(a, b);
        break;
      case K.len: {
        const x = int(bytes, a, b);
        if (x < 0) return undefined;
        len = x;
        break;
      }
      case K.worker: {
        const x = int(bytes, a, b);
        if (x < 0) return undefined;
        worker = x;
        break;
      }
      case K.generation: {
        const x = int(bytes, a, b);
        if (x < 0) return undefined;
        generation = x;
        break;
      }
      case K.code: {
        const x = int(bytes, a, b);
        if (x < 0) return undefined;
        code = x;
        break;
      }
      case K.kind:
        if (is(view, a, b, V.Foo)) kind = "Foo";
        else if (is(view, a, b, V.Deployment)) kind = "Deployment";
        else return undefined;
        break;
      case K.event:
        if (is(view, a, b, V.add)) event = "add";
        else if (is(view, a, b, V.update)) event = "update";
        else if (is(view, a, b, V.delete)) event = "delete";
        else return undefined;
        break;
      case K.name:
        name = strings.get(bytes, text, a, b);
        nameId = strings.lastId;
        break;
      case K.ns:
        ns = strings.get(bytes, text, a, b);
        nsId = strings.lastId;
        break;
      case K.verb:
        if (is(view, a, b, V.updateStatus)) verb = "updateStatus";
        else if (is(view, a, b, V.update)) verb = "update";
        else if (is(view, a, b, V.create)) verb = "create";
        else if (is(view, a, b, V.patch)) verb = "patch";
        else if (is(view, a, b, V.delete)) verb = "delete";
        else return undefined;
        break;
      case K.target:
        targetStart = a;
        targetEnd = b;
        break;
      case K.reason:
        reason = strings.get(bytes, text, a, b);
        reasonId = strings.lastId;
        break;
      case K.cause:
        if (is(view, a, b, V.watch)) cause = "watch";
        else if (is(view, a, b, V.resync)) cause = "resync";
        else if (is(view, a, b, V.retry)) cause = "retry";
        else return undefined;
        break;
      case K.merged:
        if (is(view, a, b, V.processing)) merged = "processing";
        else if (is(view, a, b, V.dirty)) merged = "dirty";
        else if (is(view, a, b, V.false)) merged = false;
        else return undefined;
        break;
      case K.found:
        found = bool(view, a, b);
        if (found === undefined) return undefined;
        break;
      case K.changed:
        changed = bool(view, a, b);
        if (changed === undefined) return undefined;
        break;
      case K.fields:
        fields = strings.get(bytes, text, a, b);
        fieldsId = strings.lastId;
        break;
    }
  }
  const allowed =
    stage === "watch"
      ? WATCH_KEYS
      : stage === "enqueue"
        ? ENQUEUE_KEYS
        : stage === "dequeue"
          ? DEQUEUE_KEYS
          : stage === "read"
            ? READ_KEYS
            : WRITE_KEYS;
  if ((seen & ~allowed) !== 0) return undefined;
  if (key === undefined && stage === "write" && targetEnd >= 0) {
    // deployments/ns/name or foos/ns/name/status → ns/name (what the general path derives too).
    const tEnd = targetEnd;
    let s1 = targetStart;
    while (s1 < tEnd && bytes[s1] !== 47) s1++;
    let s2 = s1 + 1;
    while (s2 < tEnd && bytes[s2] !== 47) s2++;
    if (s2 >= tEnd) return undefined;
    let s3 = s2 + 1;
    while (s3 < tEnd && bytes[s3] !== 47) s3++;
    key = strings.key(bytes, text, s1 + 1, s3);
    keyId = strings.lastId;
  }
  if (targetEnd >= 0) {
    target = strings.keyed(bytes, text, targetStart, targetEnd);
    targetId = strings.lastId;
  }
  // An empty key is a watch's "no Foo"; on any other stage the general path reports it.
  if (key === undefined || (key === "" && stage !== "watch")) return undefined;
  if (stage === "watch") {
    if (kind === undefined || event === undefined) return undefined;
    if (name === undefined) {
      if (key === "") return undefined;
      let slash = keyStart;
      while (slash < keyEnd && bytes[slash] !== 47) slash++;
      if (slash < keyEnd) {
        name = strings.keyPart(bytes, text, slash + 1, keyEnd, 1);
        nameId = strings.lastId;
      } else {
        name = key;
        nameId = keyId;
      }
      if (ns === undefined && slash < keyEnd) {
        ns = strings.keyPart(bytes, text, keyStart, slash, 0);
        nsId = strings.lastId;
      }
    }
  } else if (stage === "write") {
    if (verb === undefined || target === undefined) return undefined;
    if (verb === "update" && target.endsWith("/status")) return undefined; // the general path renames it
  }
  if (rows !== undefined) {
    const f = rows.fields;
    f.stage = stage;
    f.key = key;
    f.rv = rv;
    f.oldRv = oldRv;
    f.len = len;
    f.worker = worker;
    f.generation = generation;
    f.code = code;
    f.kind = kind;
    f.event = event;
    f.name = name;
    f.ns = ns;
    f.verb = verb;
    f.target = target;
    f.reason = reason;
    f.cause = cause;
    f.merged = merged;
    f.found = found;
    f.changed = changed;
    f.fields = fields;
    f.keyId = keyId;
    f.nameId = nameId;
    f.nsId = nsId;
    f.targetId = targetId;
    f.reasonId = reasonId;
    f.fieldsId = fieldsId;
    if (rows.take(f, at, text, lineStart, end)) return null;
  }
  // Cut only for an event: a row taker that keeps no text spares a string per line.
  const raw = text.slice(lineStart, end);
  const { ts, src, line, seq } = at;
  at.key = key;
  switch (stage) {
    case "watch": {
      // kind, event and name: checked above.
      if (kind === undefined || event === undefined || name === undefined) return undefined;
      if (ns !== undefined && rv !== undefined && oldRv !== undefined) {
        return { ts, key, stage, kind, event, name, ns, rv, oldRv, src, raw, line, seq };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage, kind, event, name };
      if (ns !== undefined) e.ns = ns;
      if (rv !== undefined) e.rv = rv;
      if (oldRv !== undefined) e.oldRv = oldRv;
      return finish(e, raw, at);
    }
    case "enqueue": {
      if (len !== undefined && merged === undefined) {
        if (cause === undefined) return { ts, key, stage, len, src, raw, line, seq };
        return { ts, key, stage, len, cause, src, raw, line, seq };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (len !== undefined) e.len = len;
      if (merged !== undefined) e.merged = merged;
      if (cause !== undefined) e.cause = cause;
      return finish(e, raw, at);
    }
    case "dequeue": {
      if (len !== undefined && worker !== undefined) {
        return { ts, key, stage, len, worker, src, raw, line, seq };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (len !== undefined) e.len = len;
      if (worker !== undefined) e.worker = worker;
      return finish(e, raw, at);
    }
    case "read": {
      if (rv !== undefined && found === undefined && worker === undefined) {
        if (generation === undefined) return { ts, key, stage, rv, src, raw, line, seq };
        return { ts, key, stage, rv, generation, src, raw, line, seq };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (rv !== undefined) e.rv = rv;
      if (generation !== undefined) e.generation = generation;
      if (found !== undefined) e.found = found;
      if (worker !== undefined) e.worker = worker;
      return finish(e, raw, at);
    }
    case "write": {
      if (verb === undefined || target === undefined) return undefined; // checked above
      if (
        code !== undefined &&
        reason === undefined &&
        changed === undefined &&
        fields === undefined &&
        worker === undefined
      ) {
        if (rv === undefined) {
          return { ts, key, stage, verb, target, code, src, raw, line, seq };
        }
        return { ts, key, stage, verb, target, code, rv, src, raw, line, seq };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage, verb, target };
      if (code !== undefined) e.code = code;
      if (reason !== undefined) e.reason = reason;
      if (rv !== undefined) e.rv = rv;
      if (changed !== undefined) e.changed = changed;
      if (fields !== undefined) e.fields = fieldList(fields);
      if (worker !== undefined) e.worker = worker;
      return finish(e, raw, at);
    }
  }
}

/** A row taker with the record it is offered lines in (see fastStageBytes). */
export interface RowOffer {
  fields: StageFields;
  /** The line is text[start, end). */
  take(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean;
}

/** The fields-first event completed with where it was read (see LineContext's order). */
function finish(e: UnsequencedEvent, raw: string, at: LineContext): TraceEvent {
  e.ts = at.ts;
  e.src = at.src;
  e.raw = raw;
  e.line = at.line;
  (e as TraceEvent).seq = at.seq;
  return e as TraceEvent;
}
