/**
 * Validates one parsed JSONL record as a TraceEvent. Required fields missing or of the wrong
 * type reject the record (the reader reports it with its line number); an optional field of the
 * wrong type is kept in `extra` under its own name instead, so nothing in the file is lost.
 */
import type { TraceEvent } from "../event.ts";
import {
  FIELD_TYPES,
  KNOWN_FIELDS,
  REQUIRED_FIELDS,
  UNKEYED_KINDS,
  type FieldType,
} from "../event-fields.ts";

type Check = (v: unknown) => boolean;
const num: Check = (v) => typeof v === "number" && Number.isFinite(v);
const str: Check = (v) => typeof v === "string";

function check(t: FieldType): Check {
  if (t === "string") return str;
  if (t === "number") return num;
  if (t === "boolean") return (v) => typeof v === "boolean";
  if (t === "strings") return (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
  return (v) => (t as readonly unknown[]).includes(v);
}

/** Each field's check, by name (null-prototype: a field named "constructor" has none). */
const CHECKS: Record<string, Check | undefined> = Object.assign(
  Object.create(null) as Record<string, Check>,
  Object.fromEntries(Object.entries(FIELD_TYPES).map(([f, t]) => [f, check(t)])),
);

const REQUIRED = Object.fromEntries(
  Object.entries(REQUIRED_FIELDS).map(([k, fs]) => [
    k,
    Object.fromEntries(fs.map((f) => [f, CHECKS[f]!])),
  ]),
) as Record<TraceEvent["stage"], Record<string, Check>>;

/** 2^52: far above any real trace, far enough below 2^53 to keep counting exactly. */
const MAX_SEQ = 2 ** 52;

/** Whether field `k` of a record is kept on the event (else it goes to `extra`). */
function fits(
  k: string,
  v: unknown,
  known: ReadonlySet<string>,
  required: Record<string, Check>,
  hasSeq: boolean,
): boolean {
  if (k === "seq") return hasSeq;
  if (!known.has(k)) return false;
  if (Object.hasOwn(required, k) || k === "stage" || k === "ts" || k === "key") return true;
  return CHECKS[k]!(v);
}

export type DecodeResult =
  { ok: true; event: TraceEvent; hasSeq: boolean } | { ok: false; message: string };

export function decodeEvent(o: unknown): DecodeResult {
  if (typeof o !== "object" || o === null || Array.isArray(o)) {
    return { ok: false, message: "record is not a JSON object" };
  }
  const rec = o as Record<string, unknown>;
  const stage = rec.stage;
  // Own keys only: "toString" or "__proto__" as a stage must not reach the prototype's members.
  if (typeof stage !== "string" || !Object.hasOwn(REQUIRED, stage)) {
    return { ok: false, message: `unknown or missing "stage" (${JSON.stringify(stage)})` };
  }
  if (!num(rec.ts)) return { ok: false, message: `${stage} record without a numeric "ts"` };
  if (!str(rec.key)) return { ok: false, message: `${stage} record without a string "key"` };
  if (rec.key === "" && !UNKEYED_KINDS.has(stage as TraceEvent["stage"])) {
    return { ok: false, message: `${stage} record with an empty "key" (ns/name)` };
  }
  const required = REQUIRED[stage as TraceEvent["stage"]];
  for (const [k, check] of Object.entries(required)) {
    if (!check(rec[k]))
      return { ok: false, message: `${stage} record with missing or invalid "${k}"` };
  }
  // A seq the reader can count on from: a positive integer with room to count up exactly
  // (1e300 + 1 === 1e300). Any other value is kept in `extra.seq` and the event renumbered.
  const hasSeq =
    Number.isSafeInteger(rec.seq) && (rec.seq as number) >= 1 && (rec.seq as number) < MAX_SEQ;
  const known = KNOWN_FIELDS[stage as TraceEvent["stage"]];
  // The common case: every field is known and valid, and the parsed record itself is the event.
  // (Copying it field by field was about a quarter of the JSONL reader's profile.)
  let clean = true;
  for (const k in rec) {
    if (!fits(k, rec[k], known, required, hasSeq)) {
      clean = false;
      break;
    }
  }
  if (clean) return { ok: true, event: rec as unknown as TraceEvent, hasSeq };
  const out: Record<string, unknown> = {};
  let extra: Record<string, unknown> | undefined;
  for (const k in rec) {
    const v = rec[k];
    if (k === "extra" && typeof v === "object" && v !== null && !Array.isArray(v)) {
      // A writer that nested its extras: keep them as extras.
      extra = { ...(v as Record<string, unknown>), ...extra };
    } else if (fits(k, v, known, required, hasSeq)) {
      out[k] = v;
    } else {
      (extra ??= {})[k] = v;
    }
  }
  if (extra) out.extra = extra;
  return { ok: true, event: out as unknown as TraceEvent, hasSeq };
}

/**
 * Events as they travel from the server — each one the JSON record `encodeEvent` writes, in an
 * array on the WebSocket and one a line in a JSONL body (catch-up, a recording) — are checked as
 * a file's records are: by decodeEvent. A record without a seq of its own, or that decodeEvent
 * refuses, is left out: the server numbers every event it sends.
 */
export function decodeEventRecords(records: readonly unknown[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const rec of records) {
    const r = decodeEvent(rec);
    if (r.ok && r.hasSeq) out.push(r.event);
  }
  return out;
}

/** The event on one JSONL line (see decodeEventRecords); undefined for any other line. */
export function decodeEventLine(line: string): TraceEvent | undefined {
  if (!line.startsWith("{")) return undefined;
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return undefined;
  }
  const r = decodeEvent(rec);
  return r.ok && r.hasSeq ? r.event : undefined;
}

/** The events of a JSONL text, in order (its header, blank and bad lines left out). */
export function decodeEventLines(text: string): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const line of text.split("\n")) {
    const e = decodeEventLine(line);
    if (e !== undefined) out.push(e);
  }
  return out;
}
