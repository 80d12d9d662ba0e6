/**
 * The field table: every field a record may carry, its type, which kinds of record carry it and in
 * what order. Each reader and the row store derive what they need from it — decodeEvent's checks,
 * the JSONL row path's masks, the klog row path's detail members, KNOWN_FIELDS — so a field added
 * here is read, checked and stored the same way on every path.
 *
 * Invariants:
 * - A kind's fields are listed in the order its events hold them: the klog readers build events in
 *   this order, and a row's detail (the fields its columns do not hold) lists them so.
 * - The types check the table against the event model: a kind lists only fields its event has.
 */
import { EVENT_KINDS, type EventBase, type TraceEvent, type TraceEventKind } from "./event.ts";

/** A field's type: one JS type, a list of strings, or one of a few values. */
export type FieldType = "string" | "number" | "boolean" | "strings" | readonly (string | false)[];

export const FIELD_TYPES = {
  seq: "number",
  ts: "number",
  key: "string",
  stage: "string",
  raw: "string",
  src: "string",
  line: "number",
  kind: "string",
  event: ["add", "update", "delete"],
  name: "string",
  ns: "string",
  rv: "string",
  oldRv: "string",
  len: "number",
  merged: [false, "dirty", "processing"],
  cause: ["watch", "resync", "retry"],
  causeSeq: "number",
  delayMs: "number",
  inferred: "boolean",
  initial: "boolean",
  worker: "number",
  generation: "number",
  found: "boolean",
  verb: "string",
  target: "string",
  code: "number",
  reason: "string",
  changed: "boolean",
  fields: "strings",
  outcome: ["synced", "requeued", "dropped"],
  error: "string",
  level: ["I", "W", "E", "F"],
  text: "string",
} as const satisfies Record<string, FieldType>;

export type FieldName = keyof typeof FIELD_TYPES;

/** Fields of every kind: seq, ts, key and stage always; the others when the source knows them. */
export const COMMON_FIELDS = ["seq", "ts", "key", "stage", "src", "raw", "line"] as const;

type OwnFields<K extends TraceEventKind> = readonly Exclude<
  keyof Extract<TraceEvent, { stage: K }>,
  keyof EventBase | "stage"
>[];
type PerKind = { readonly [K in TraceEventKind]: OwnFields<K> };

/** Each kind's own fields, in the order its events hold them. */
export const KIND_FIELDS: PerKind = {
  watch: ["kind", "event", "name", "ns", "rv", "oldRv", "initial"],
  enqueue: ["len", "merged", "cause", "causeSeq", "delayMs", "inferred"],
  dequeue: ["len", "worker"],
  read: ["rv", "generation", "found", "worker"],
  write: ["verb", "target", "code", "reason", "rv", "changed", "fields", "worker"],
  done: ["outcome", "error", "delayMs", "worker", "inferred"],
  note: ["level", "text"],
};

/** The fields a record of each kind cannot do without, beyond seq, ts, key and stage. */
export const REQUIRED_FIELDS: PerKind = {
  watch: ["kind", "event", "name"],
  enqueue: [],
  dequeue: [],
  read: [],
  write: ["verb", "target"],
  done: ["outcome"],
  note: ["text"],
};

/**
 * Kinds whose key may be "": a watch event of an object no Foo owns, a line about no Foo. Any
 * other record is about a Foo, and an empty key would make one named "".
 */
export const UNKEYED_KINDS: ReadonlySet<TraceEventKind> = new Set(["watch", "note"]);

/** Field names the model knows, per kind; a reader keeps everything else in `extra`. */
export const KNOWN_FIELDS = {} as Record<TraceEventKind, ReadonlySet<string>>;
for (const k of EVENT_KINDS) KNOWN_FIELDS[k] = new Set([...COMMON_FIELDS, ...KIND_FIELDS[k]]);
