/**
 * Reads a STAGE line on its bytes: how every STAGE line of a klog log read in bulk is read. The
 * tag is `STAGE/<stage>`, InfoS's `"STAGE/<stage>"`, or the structured `"STAGE"` whose first
 * field is `stage=<stage>`; the fields come in any order, under any spelling of spellings.ts, bare
 * or Go-quoted, and their values mean what spellings.ts says. Keys, targets, names and namespaces
 * are slices of the text; verbs, kinds and the like are constants.
 *
 * Invariants:
 * - `bytes[from, end)` and `text[from, end)` are the same characters at the same offsets (ASCII
 *   bytes, or bytes the decoder replaced one for one): every decision is taken on bytes compared
 *   with ASCII, which a non-ASCII byte and its replacement character both fail alike.
 * - The fields it reads are those parseStageMessage (stage-line.ts) reads from the same message,
 *   field for field — a field no role of its stage takes kept in `extra`, as written. A line it
 *   cannot read exactly so — a positional word, an escape in a quoted value, a JSON value, a
 *   repeated field, a value that reads as nothing, a line without what its stage needs — it
 *   declines (false): the caller then takes parseStageMessage, which also says what is wrong
 *   with the line.
 */
import { STAGES, type Stage } from "../event.ts";
import type { StageFields } from "./stage-fields.ts";
import { indexOfEither } from "./byte-span.ts";
import { isKeyChar, isKeyStart } from "./fields.ts";
import {
  bool,
  CAUSES,
  durationMs,
  isKeyName,
  kindOf,
  mergedOf,
  NAMES,
  num,
  roleOf,
  WATCH_VERBS,
  writeVerbOf,
  type Role,
} from "./spellings.ts";

/** Role ids, a bit each in `seen`. */
const ROLES = Object.keys(NAMES) as Role[];
const R = Object.fromEntries(ROLES.map((r, i) => [r, i])) as Record<Role, number>;

/** Every spelling of a field name (lower-case), by index, and its bytes. */
const SPELLED = [...new Set(Object.values(NAMES).flat())] as string[];
const SPELLED_BYTES = SPELLED.map((s) => new TextEncoder().encode(s));
/** ROLE_OF[stage × SPELLED.length + spelling]: the role id it fills on that stage, or -1. */
const ROLE_OF = new Int8Array(STAGES.length * SPELLED.length).fill(-1);
STAGES.forEach((stage, si) =>
  SPELLED.forEach((s, i) => {
    const role = roleOf(stage, s);
    if (role !== undefined) ROLE_OF[si * SPELLED.length + i] = R[role];
  }),
);
/** Whether a spelling names a key (its empty value means "no Foo", not absent). */
const KEY_NAME = SPELLED.map(isKeyName);

/** Spellings by hash of their lower-cased bytes: open addressing, slot = index + 1. */
const TABLE_BITS = 9;
const TABLE = new Int16Array(1 << TABLE_BITS);

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

function hashLower(bytes: Uint8Array, a: number, b: number): number {
  let h = b - a;
  for (let i = a; i < b; i++) h = (Math.imul(h, 31) + lower(bytes[i])) | 0;
  return (h ^ (h >>> 9)) & ((1 << TABLE_BITS) - 1);
}

SPELLED_BYTES.forEach((s, i) => {
  let slot = hashLower(s, 0, s.length);
  while (TABLE[slot] !== 0) slot = (slot + 1) & ((1 << TABLE_BITS) - 1);
  TABLE[slot] = i + 1;
});

/** Whether bytes[a, a + spelling's length) spell spelling `s`, in any case. */
function spells(bytes: Uint8Array, a: number, end: number, s: number): boolean {
  const sp = SPELLED_BYTES[s];
  if (a + sp.length > end) return false;
  for (let i = 0; i < sp.length; i++) if (lower(bytes[a + i]) !== sp[i]) return false;
  return true;
}

/** The spelling bytes[a, b) is, in any case, or -1. */
function spellingAt(bytes: Uint8Array, a: number, b: number): number {
  let slot = hashLower(bytes, a, b);
  for (;;) {
    const s = TABLE[slot] - 1;
    if (s < 0) return -1;
    if (SPELLED_BYTES[s].length === b - a && spells(bytes, a, b, s)) return s;
    slot = (slot + 1) & ((1 << TABLE_BITS) - 1);
  }
}

/** Whether bytes[a, end) open with `word`'s bytes, exactly. */
function opensWith(bytes: Uint8Array, a: number, end: number, word: Uint8Array): boolean {
  if (a + word.length > end) return false;
  for (let i = 0; i < word.length; i++) if (bytes[a + i] !== word[i]) return false;
  return true;
}

const ascii = (s: string) => new TextEncoder().encode(s);
const STAGE_BYTES = STAGES.map(ascii);
const STAGE_FIELD = ascii("stage=");

/** Whether bytes[a, b) spell `word` exactly. */
function is(bytes: Uint8Array, a: number, b: number, word: Uint8Array): boolean {
  return b - a === word.length && opensWith(bytes, a, b, word);
}

/** The canonical values, compared on bytes: most lines spell them so, and need no string cut. */
const V = {
  Foo: ascii("Foo"),
  Deployment: ascii("Deployment"),
  add: ascii("add"),
  update: ascii("update"),
  delete: ascii("delete"),
  updateStatus: ascii("updateStatus"),
  create: ascii("create"),
  patch: ascii("patch"),
  watch: ascii("watch"),
  resync: ascii("resync"),
  retry: ascii("retry"),
  processing: ascii("processing"),
  dirty: ascii("dirty"),
  true: ascii("true"),
  false: ascii("false"),
};

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

/** The stage whose name is bytes[i, …) followed by `after`, or -1. */
function stageAt(bytes: Uint8Array, i: number, end: number, after: number): number {
  for (let s = 0; s < STAGE_BYTES.length; s++) {
    if (!opensWith(bytes, i, end, STAGE_BYTES[s])) continue;
    const n = i + STAGE_BYTES[s].length;
    return (n < end ? bytes[n] === after : after === 32) ? s : -1;
  }
  return -1;
}

/** Whether bytes[i, i + 6) are "STAGE/" (or, `slash` false, "STAGE" and a quote). */
export function tagAt(bytes: Uint8Array, i: number, end: number, slash: boolean): boolean {
  return (
    i + 6 <= end &&
    bytes[i] === 83 &&
    bytes[i + 1] === 84 &&
    bytes[i + 2] === 65 &&
    bytes[i + 3] === 71 &&
    bytes[i + 4] === 69 &&
    bytes[i + 5] === (slash ? 47 : 34)
  );
}

/**
 * Reads the STAGE line whose message is bytes[from, end) (before its "\n" or "\r\n") into `f`,
 * every member of it refilled: true. False: take the general path (`f` is then left half filled).
 */
export function readStageBytes(
  bytes: Uint8Array,
  text: string,
  from: number,
  end: number,
  f: StageFields,
): boolean {
  let i = from;
  let si: number;
  if (tagAt(bytes, i, end, true)) {
    si = stageAt(bytes, i + 6, end, 32);
    if (si < 0) return false;
    i += 6 + STAGE_BYTES[si].length;
  } else if (bytes[i] === 34 && tagAt(bytes, i + 1, end, true)) {
    // InfoS: "STAGE/<stage>" and its pairs after the quote.
    si = stageAt(bytes, i + 7, end, 34);
    if (si < 0) return false;
    i += 8 + STAGE_BYTES[si].length;
    if (i < end && bytes[i] !== 32) return false;
  } else if (bytes[i] === 34 && tagAt(bytes, i + 1, end, false)) {
    // Structured: "STAGE" stage="<stage>" and the other pairs.
    i += 7;
    if (i >= end || bytes[i] !== 32) return false;
    while (i < end && bytes[i] === 32) i++;
    if (!opensWith(bytes, i, end, STAGE_FIELD)) return false;
    i += 6;
    const quoted = bytes[i] === 34 ? 1 : 0;
    si = stageAt(bytes, i + quoted, end, quoted ? 34 : 32);
    if (si < 0) return false;
    i += STAGE_BYTES[si].length + 2 * quoted;
    if (i < end && bytes[i] !== 32) return false;
  } else return false;
  const stage: Stage = STAGES[si];
  const roleRow = si * SPELLED.length;
  let key: string | undefined;
  /** Where the key's value lies, for a watch line's name and namespace. */
  let keyStart = 0;
  let keyEnd = 0;
  let rv: string | undefined;
  let oldRv: string | undefined;
  let len: number | undefined;
  let worker: number | undefined;
  let kind: string | undefined;
  let event: "add" | "update" | "delete" | undefined;
  let name: string | undefined;
  let ns: string | undefined;
  let verb: string | undefined;
  /** Where the target's value lies (-1: none): a write without a key takes it from there. */
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
  let causeSeq: number | undefined;
  let delayMs: number | undefined;
  /** Fields no role of this stage takes, as the general path keeps them. */
  let extra: Record<string, unknown> | undefined;
  let seen = 0;
  while (i < end) {
    while (i < end && bytes[i] === 32) i++;
    if (i >= end) break;
    const ks = i;
    const eq = indexOfEither(bytes, i, end, 61, 32); // "=", " "
    if (eq >= end || bytes[eq] !== 61 || eq === ks) return false; // a positional word
    const s = spellingAt(bytes, ks, eq);
    let a = eq + 1;
    let b: number;
    const c = a < end ? bytes[a] : 32;
    if (c === 34) {
      // Go-quoted: the value is what lies between the quotes, when no escape is in it.
      const q = indexOfEither(bytes, a + 1, end, 34, 92); // '"', "\"
      if (q >= end || bytes[q] === 92) return false;
      a++;
      b = q;
      i = q + 1;
      if (i < end && bytes[i] !== 32) return false;
    } else {
      // JSON, or a tab the general path splits on.
      if (c === 123 || c === 91 || c === 9) return false;
      b = indexOfEither(bytes, a, end, 32, 9); // " ", "\t"
      if (b < end && bytes[b] === 9) return false;
      i = b;
    }
    const role = s < 0 ? -1 : ROLE_OF[roleRow + s];
    if (role < 0) {
      // No role of this stage: kept in `extra` as written, unless empty (absent). A name the
      // general path reads otherwise (not a plain name, `stage`, one given twice) is its to read.
      const kept = extraField(extra, bytes, text, ks, eq, a, b);
      if (kept === false) return false;
      extra = kept;
      continue;
    }
    const bit = 1 << role;
    // A field given twice (or under two spellings): the general path says which one counts.
    if ((seen & bit) !== 0) return false;
    if (a === b) {
      // An empty value is absent, except an empty key: a watch event that resolved to no Foo.
      if (KEY_NAME[s]) {
        key = "";
        seen |= bit;
      }
      continue;
    }
    seen |= bit;
    switch (role) {
      case R.key:
        if (bytes[a] === 123) return false; // a JSON object, quoted: the general path reads it
        key = text.slice(a, b);
        keyStart = a;
        keyEnd = b;
        break;
      case R.rv:
        rv = text.slice(a, b);
        break;
      case R.oldRv:
        oldRv = text.slice(a, b);
        break;
      case R.len:
        len = number(bytes, text, a, b);
        if (len === undefined) return false;
        break;
      case R.worker:
        worker = number(bytes, text, a, b);
        if (worker === undefined) return false;
        break;
      case R.generation:
        generation = number(bytes, text, a, b);
        if (generation === undefined) return false;
        break;
      case R.code:
        code = number(bytes, text, a, b);
        if (code === undefined) return false;
        break;
      case R.causeSeq:
        causeSeq = number(bytes, text, a, b);
        if (causeSeq === undefined) return false;
        break;
      case R.delay: {
        const ms = int(bytes, a, b);
        delayMs = ms >= 0 ? ms : durationMs(text.slice(a, b));
        if (delayMs === undefined) return false;
        break;
      }
      case R.kind:
        if (is(bytes, a, b, V.Foo)) kind = "Foo";
        else if (is(bytes, a, b, V.Deployment)) kind = "Deployment";
        else kind = kindOf(text.slice(a, b));
        break;
      case R.event:
        if (is(bytes, a, b, V.add)) event = "add";
        else if (is(bytes, a, b, V.update)) event = "update";
        else if (is(bytes, a, b, V.delete)) event = "delete";
        else event = WATCH_VERBS[text.slice(a, b).toLowerCase()];
        if (event === undefined) return false;
        break;
      case R.name:
        name = text.slice(a, b);
        break;
      case R.ns:
        ns = text.slice(a, b);
        break;
      case R.verb:
        if (is(bytes, a, b, V.updateStatus)) verb = "updateStatus";
        else if (is(bytes, a, b, V.update)) verb = "update";
        else if (is(bytes, a, b, V.create)) verb = "create";
        else if (is(bytes, a, b, V.patch)) verb = "patch";
        else if (is(bytes, a, b, V.delete)) verb = "delete";
        else verb = writeVerbOf(text.slice(a, b));
        break;
      case R.target:
        targetStart = a;
        targetEnd = b;
        break;
      case R.reason:
        reason = text.slice(a, b);
        break;
      case R.cause:
        if (is(bytes, a, b, V.watch)) cause = "watch";
        else if (is(bytes, a, b, V.resync)) cause = "resync";
        else if (is(bytes, a, b, V.retry)) cause = "retry";
        else cause = CAUSES[text.slice(a, b).toLowerCase()];
        break;
      case R.merged:
        if (is(bytes, a, b, V.processing)) merged = "processing";
        else if (is(bytes, a, b, V.dirty)) merged = "dirty";
        else if (is(bytes, a, b, V.false)) merged = false;
        else merged = mergedOf(text.slice(a, b));
        break;
      case R.found:
        found = truth(bytes, text, a, b);
        break;
      case R.changed:
        changed = truth(bytes, text, a, b);
        // `changed=status.lastSyncTime` names fields: the general path reads it so.
        if (changed === undefined) return false;
        break;
      case R.fields:
        fields = text.slice(a, b);
        break;
    }
  }
  if (key === "" && stage === "write") key = undefined;
  if (key === undefined && stage === "write" && targetEnd >= 0) {
    // deployments/ns/name or foos/ns/name/status → ns/name (what the general path derives too).
    const tEnd = targetEnd;
    let s1 = targetStart;
    while (s1 < tEnd && bytes[s1] !== 47) s1++;
    let s2 = s1 + 1;
    while (s2 < tEnd && bytes[s2] !== 47) s2++;
    if (s2 >= tEnd) return false;
    let s3 = s2 + 1;
    while (s3 < tEnd && bytes[s3] !== 47) s3++;
    key = text.slice(s1 + 1, s3);
  }
  let target: string | undefined;
  if (targetEnd >= 0) {
    target = text.slice(targetStart, targetEnd);
  }
  // An empty key is a watch's "no Foo"; on any other stage the general path reports it.
  if (key === undefined || (key === "" && stage !== "watch")) return false;
  if (stage === "watch") {
    if (kind === undefined || event === undefined) return false; // assumed: see stage-line.ts
    if (name === undefined) {
      if (key === "") name = "";
      else {
        let slash = keyStart;
        while (slash < keyEnd && bytes[slash] !== 47) slash++;
        if (slash < keyEnd) {
          name = text.slice(slash + 1, keyEnd);
        } else {
          name = key;
        }
        if (ns === undefined && slash < keyEnd) ns = text.slice(keyStart, slash);
      }
    }
  } else if (stage === "write") {
    if (verb === undefined || target === undefined) return false;
    if (verb === "update" && target.endsWith("/status")) verb = "updateStatus";
  }
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
  f.causeSeq = causeSeq;
  f.delayMs = delayMs;
  f.extra = extra;
  return true;
}

/**
 * `extra` with the field text[ks, eq) = text[a, b) added (an empty value is absent), as the
 * general path adds it (see stage-line.ts's Roles) — or false when that path reads the field
 * otherwise: a name that is not a plain one (see fields.ts), `stage` (the structured tag's own), or a name given twice (its last value counts,
 * moved to the end).
 */
function extraField(
  extra: Record<string, unknown> | undefined,
  bytes: Uint8Array,
  text: string,
  ks: number,
  eq: number,
  a: number,
  b: number,
): Record<string, unknown> | undefined | false {
  // A name as scanFields reads one; anything else is a positional word there.
  if (!isKeyStart(bytes[ks])) return false;
  for (let i = ks + 1; i < eq; i++) if (!isKeyChar(bytes[i])) return false;
  if (eq - ks === 5 && isStageName(bytes, ks)) return false;
  const name = text.slice(ks, eq);
  // `__proto__` too: the general path keeps it as data, where a store here would set a prototype.
  if (name === "__proto__" || (extra !== undefined && Object.hasOwn(extra, name))) return false;
  if (a === b) return extra;
  extra ??= {};
  extra[name] = text.slice(a, b);
  return extra;
}

/** "stage", in bytes: a field name in any case is compared with it lower-cased (`| 32`). */
const STAGE_NAME = [115, 116, 97, 103, 101];

/** Whether bytes[ks, ks + 5) spell "stage" in any case. */
function isStageName(bytes: Uint8Array, ks: number): boolean {
  for (let i = 0; i < 5; i++) if ((bytes[ks + i] | 32) !== STAGE_NAME[i]) return false;
  return true;
}

/** A number field's value (digits, else what Number makes of it), or undefined when none. */
function number(bytes: Uint8Array, text: string, a: number, b: number): number | undefined {
  const x = int(bytes, a, b);
  return x >= 0 ? x : num(text.slice(a, b));
}

/** A yes/no field's value, or undefined when it says neither. */
function truth(bytes: Uint8Array, text: string, a: number, b: number): boolean | undefined {
  if (is(bytes, a, b, V.true)) return true;
  if (is(bytes, a, b, V.false)) return false;
  return bool(text.slice(a, b));
}
