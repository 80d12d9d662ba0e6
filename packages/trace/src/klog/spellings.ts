/**
 * What a STAGE line's fields are called and what their values mean: the STAGE reader
 * (stage-line.ts) recognises the spellings below and reads values with the functions below (a
 * value spelled the canonical way it compares on its bytes first).
 *
 * Lookups are own-key only (null-prototype tables): a value spelled "constructor" is no verb.
 */
import type { EnqueueCause, Stage, WatchVerb, WriteVerb } from "../event.ts";

/** Key spellings, lower-cased, per role. A line's first field spelled as a role fills it. */
export const NAMES = {
  key: [
    "key",
    "object",
    "obj",
    "objectname",
    "objectref",
    "objectreference",
    "objref",
    "resourcename",
    "item",
    "foo",
    "workqueuekey",
  ],
  rv: ["rv", "resourceversion", "resource_version", "resource-version"],
  oldRv: ["oldrv", "old_rv", "oldresourceversion", "old_resource_version", "old-rv"],
  len: [
    "len",
    "queuelen",
    "queue_len",
    "queuelength",
    "queue_length",
    "length",
    "qlen",
    "depth",
    "queue",
    "queuedepth",
    "queue_depth",
  ],
  worker: ["worker", "workerid", "worker_id"],
  kind: ["kind", "objectkind", "object_kind"],
  event: ["event", "eventtype", "event_type", "type", "op", "action"],
  name: ["name", "objname"],
  ns: ["ns", "namespace"],
  verb: ["verb", "op", "method", "action", "call"],
  target: ["target", "resource", "path"],
  code: ["code", "status", "statuscode", "status_code", "http"],
  reason: ["reason", "err", "error"],
  changed: ["changed", "modified"],
  fields: ["fields", "changedfields", "changed_fields", "diff"],
  generation: ["generation", "gen"],
  found: ["found"],
  initial: ["initial", "isininitiallist", "is_in_initial_list"],
  merged: ["merged", "dedup", "deduped"],
  cause: ["cause", "origin", "why", "reason"],
  causeSeq: ["causeseq", "cause_seq"],
  delay: ["delayms", "delay_ms", "delay", "backoff"],
} as const;

export type Role = keyof typeof NAMES;

/** The roles each stage's fields can fill, in the order a spelling is matched against them. */
export const ROLES_BY_STAGE: Record<Stage, readonly Role[]> = {
  watch: ["key", "rv", "oldRv", "kind", "event", "name", "ns", "initial"],
  enqueue: ["key", "len", "merged", "cause", "causeSeq", "delay"],
  dequeue: ["key", "len", "worker"],
  read: ["key", "rv", "generation", "found", "worker"],
  write: [
    "key",
    "verb",
    "target",
    "code",
    "reason",
    "rv",
    "changed",
    "fields",
    "worker",
    "kind",
    "name",
    "ns",
  ],
};

/** The role `lower` (a lower-cased field name) fills on a line of `stage`, if any. */
export function roleOf(stage: Stage, lower: string): Role | undefined {
  for (const role of ROLES_BY_STAGE[stage])
    if ((NAMES[role] as readonly string[]).includes(lower)) return role;
  return undefined;
}

/** Whether `lower` spells a key: its empty value means "no Foo", where others' mean absent. */
export function isKeyName(lower: string): boolean {
  return (NAMES.key as readonly string[]).includes(lower);
}

function table<T>(entries: Record<string, T>): Record<string, T | undefined> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

export const WATCH_VERBS = table<WatchVerb>({
  add: "add",
  added: "add",
  create: "add",
  created: "add",
  update: "update",
  updated: "update",
  modified: "update",
  modify: "update",
  delete: "delete",
  deleted: "delete",
  removed: "delete",
  // The handler's name, as a learner may print it.
  addfunc: "add",
  onadd: "add",
  updatefunc: "update",
  onupdate: "update",
  deletefunc: "delete",
  ondelete: "delete",
});

export const WRITE_VERBS = table<WriteVerb>({
  create: "create",
  created: "create",
  post: "create",
  update: "update",
  updated: "update",
  put: "update",
  updatestatus: "updateStatus",
  update_status: "updateStatus",
  "update-status": "updateStatus",
  patch: "patch",
  patched: "patch",
  delete: "delete",
  deleted: "delete",
});

export const KINDS = table<string>({
  foo: "Foo",
  foos: "Foo",
  deployment: "Deployment",
  deployments: "Deployment",
  deploy: "Deployment",
});

export const PLURAL = table<string>({ Foo: "foos", Deployment: "deployments" });

export const CAUSES = table<EnqueueCause>({
  watch: "watch",
  event: "watch",
  resync: "resync",
  sync: "resync",
  retry: "retry",
  requeue: "retry",
  ratelimited: "retry",
  "rate-limited": "retry",
});

/** A kind as written → the kind ("foos" → "Foo"; one it does not know, as written). */
export function kindOf(v: string): string {
  return KINDS[v.toLowerCase()] ?? v;
}

/** A write's verb as written → the verb ("PUT" → "update"; one it does not know, as written). */
export function writeVerbOf(v: string): string {
  return WRITE_VERBS[v.toLowerCase()] ?? v;
}

/** `merged=` → the enqueue's merged, or undefined (left out) for a value it does not know. */
export function mergedOf(v: string): false | "dirty" | "processing" | undefined {
  const l = v.toLowerCase();
  return l === "dirty" || l === "processing" ? l : l === "false" || l === "no" ? false : undefined;
}

export function num(v: string | undefined): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export function bool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  const l = v.toLowerCase();
  if (l === "true" || l === "yes" || l === "1") return true;
  if (l === "false" || l === "no" || l === "0") return false;
  return undefined;
}

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
};

/** "5ms", "1.5s", "250" (ms) → milliseconds. */
export function durationMs(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m)?$/.exec(v);
  if (!m) return undefined;
  return Number(m[1]) * DURATION_UNITS[m[2] ?? "ms"];
}

/** A write's `fields=` value → its field paths: a JSON array, or a comma-separated list. */
export function fieldList(fields: string): string[] {
  let list: string[] = [];
  if (fields.startsWith("[")) {
    try {
      const parsed = JSON.parse(fields) as unknown;
      if (Array.isArray(parsed)) list = parsed.map(String);
    } catch {
      list = [];
    }
  } else list = fields.split(",");
  return list.map((s) => s.trim()).filter(Boolean);
}
