/**
 * Validates one parsed JSONL record as a TraceEvent. Required fields missing or of the wrong
 * type reject the record (the reader reports it with its line number); an optional field of the
 * wrong type is kept in `extra` under its own name instead, so nothing in the file is lost.
 */
import { EVENT_KINDS, type TraceEvent, type TraceEventKind } from "../event.ts";
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

/** Each field's check, by name. */
const CHECKS = new Map(Object.entries(FIELD_TYPES).map(([f, t]) => [f, check(t)]));

/** Per kind: its required fields and their checks (beyond seq, ts, key and stage). */
const REQUIRED = new Map(
  EVENT_KINDS.map((k) => [k, REQUIRED_FIELDS[k].map((f) => [f, CHECKS.get(f)!] as const)]),
);

/**
 * Per kind: each field its events keep, and its check there (null: checked already). One lookup a
 * field: a dictionary, a Set and a hasOwn per field were a sixth of the JSONL reader's profile.
 */
const KEPT = new Map(
  EVENT_KINDS.map((k) => {
    const checked = new Set<string>([...REQUIRED_FIELDS[k], "stage", "ts", "key"]);
    const kept = new Map<string, Check | null>();
    for (const f of KNOWN_FIELDS[k])
      if (f !== "seq") kept.set(f, checked.has(f) ? null : CHECKS.get(f)!);
    return [k, kept];
  }),
);

/** 2^52: far above any real trace, far enough below 2^53 to keep counting exactly. */
const MAX_SEQ = 2 ** 52;

/** Whether field `k` of a record is kept on the event (else it goes to `extra`). */
function fits(k: string, v: unknown, kept: Map<string, Check | null>, hasSeq: boolean): boolean {
  const check = kept.get(k);
  if (check === undefined) return k === "seq" && hasSeq;
  return check === null || check(v);
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
  const required = typeof stage === "string" ? REQUIRED.get(stage as TraceEventKind) : undefined;
  if (required === undefined) {
    return { ok: false, message: `unknown or missing "stage" (${JSON.stringify(stage)})` };
  }
  if (!num(rec.ts)) return { ok: false, message: `${stage} record without a numeric "ts"` };
  if (!str(rec.key)) return { ok: false, message: `${stage} record without a string "key"` };
  if (rec.key === "" && !UNKEYED_KINDS.has(stage as TraceEvent["stage"])) {
    return { ok: false, message: `${stage} record with an empty "key" (ns/name)` };
  }
  for (let i = 0; i < required.length; i++) {
    const [k, check] = required[i];
    if (!check(rec[k]))
      return { ok: false, message: `${stage} record with missing or invalid "${k}"` };
  }
  // A seq the reader can count on from: a positive integer with room to count up exactly
  // (1e300 + 1 === 1e300). Any other value is kept in `extra.seq` and the event renumbered.
  const hasSeq =
    Number.isSafeInteger(rec.seq) && (rec.seq as number) >= 1 && (rec.seq as number) < MAX_SEQ;
  const kept = KEPT.get(stage as TraceEventKind)!;
  // The common case: every field is known and valid, and the parsed record itself is the event.
  // (Copying it field by field was about a quarter of the JSONL reader's profile.)
  let clean = true;
  for (const k in rec) {
    if (!fits(k, rec[k], kept, hasSeq)) {
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
    } else if (fits(k, v, kept, hasSeq)) {
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
