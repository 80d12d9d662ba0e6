/**
 * Reads the body of a STAGE line into its fields (StageFields; stage-fields.ts builds the event).
 * Accepts every spelling people write when they follow the exercise by hand (docs/trace-format.md
 * lists them):
 *
 *   STAGE/watch kind=Foo event=add key=default/example-foo rv=1001        (canonical, Infof)
 *   "STAGE/read" key="default/example-foo" resourceVersion="1001"        (InfoS)
 *   STAGE/enqueue object=default/example-foo queue_len=1                  (other key spellings)
 *   STAGE/write create deployment default/example-foo                     (positional free text)
 *
 * Fields it cannot find stay absent; keys it does not know go to `extra`.
 */
import type { Stage } from "../event.ts";
import { isStage } from "../event.ts";
import { stageFields, type StageFields } from "./stage-fields.ts";
import { type Fields, scanFields } from "./fields.ts";
import { readGoQuoted } from "./go-quote.ts";
import {
  bool,
  CAUSES,
  durationMs,
  isKeyName,
  kindOf,
  KINDS,
  mergedOf,
  NAMES,
  num,
  PLURAL,
  roleOf,
  WATCH_VERBS,
  WRITE_VERBS,
  writeVerbOf,
  type Role,
} from "./spellings.ts";

/** `warnings`: fields that were there but unreadable (`len=abc`), left out of the event. */
export type StageParse =
  { ok: true; fields: StageFields; warnings?: string[] } | { ok: false; message: string };

const OWN = (value: unknown): PropertyDescriptor => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});

/** Extra fields (unknown keys) and the roles found, per line. */
class Roles {
  readonly byRole = new Map<Role, string>();
  extra: Record<string, unknown> | undefined;
  warnings: string[] | undefined;

  constructor(
    private readonly f: Fields,
    stage: Stage,
  ) {
    for (let i = 0; i < f.keys.length; i++) {
      const lower = f.keys[i].toLowerCase();
      // `reason=` and `rv=` print empty when a Go value is nil/"": absent, not "". Only an
      // empty key means something (a watch event that resolved to no Foo).
      if (f.values[i] === "" && !isKeyName(lower)) continue;
      const role = roleOf(stage, lower);
      // A second spelling of a role already filled (reason= and err=) is kept, not lost.
      const used = role !== undefined && !this.byRole.has(role);
      if (used) this.byRole.set(role, f.values[i]);
      // defineProperty: a key spelled "__proto__" is data like any other, not a prototype.
      if (!used) Object.defineProperty((this.extra ??= {}), f.keys[i], OWN(f.values[i]));
    }
  }

  get(role: Role): string | undefined {
    return this.byRole.get(role);
  }

  /** A numeric field; one that is there but no number is left out, with a warning. */
  num(role: Role): number | undefined {
    return this.#checked(role, num, "a number");
  }

  /** A duration field ("5ms", "1.5s", "250"), in milliseconds; unreadable as in num(). */
  durationMs(role: Role): number | undefined {
    return this.#checked(role, durationMs, "a duration");
  }

  #checked(
    role: Role,
    read: (v: string | undefined) => number | undefined,
    what: string,
  ): number | undefined {
    const v = this.byRole.get(role);
    const x = read(v);
    // Left out, not guessed (no NaN on a timeline), and said: else a typo in the controller's
    // STAGE line would go unnoticed.
    if (x === undefined && v !== undefined && v !== "") {
      // Named as the line spelled it (queue_len=, workerID=).
      const { keys, values } = this.f;
      const names = NAMES[role] as readonly string[];
      const spelled =
        keys.find((k, i) => values[i] === v && names.includes(k.toLowerCase())) ?? role;
      (this.warnings ??= []).push(`${spelled}=${v} is not ${what}; left out`);
    }
    return x;
  }
}

const NS_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const TARGET = /^[a-z0-9.]+(\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?){2,3}$/;

/** Strips punctuation people put around positional words: `'ns/name',` → `ns/name`. */
function cleanWord(w: string): string {
  return w.replace(/^[('"[<]+|[)'":,;.\]>]+$/g, "");
}

/** A key from a value: "ns/name", or a JSON object with namespace and name. */
function keyFromValue(v: string): string | undefined {
  if (v.startsWith("{")) {
    try {
      const o = JSON.parse(v) as Record<string, unknown>;
      const lower = Object.fromEntries(Object.entries(o).map(([k, x]) => [k.toLowerCase(), x]));
      const name = lower.name;
      const ns = lower.namespace;
      if (typeof name === "string") return typeof ns === "string" && ns ? `${ns}/${name}` : name;
    } catch {
      return undefined;
    }
    return undefined;
  }
  return v;
}

/** A structured klog call's message (`klog.InfoS("STAGE", "stage", "read", …)`), quotes included. */
export const STRUCTURED_TAG = '"STAGE"';

/** Whether `msg` holds the structured tag at `at`, followed by its pairs or nothing. */
export function isStructuredTag(msg: string, at: number): boolean {
  if (!msg.startsWith(STRUCTURED_TAG, at)) return false;
  const c = msg.charCodeAt(at + STRUCTURED_TAG.length);
  return Number.isNaN(c) || c === 32 || c === 9;
}

/**
 * Parses a message body that holds a STAGE tag at `at`: "STAGE/" (bare, or inside InfoS's quoted
 * message), or the structured tag `"STAGE"` whose `stage=` field names the stage. `msg` is the text
 * after the klog header (or a whole header-less line).
 */
export function parseStageMessage(msg: string, at: number): StageParse {
  if (isStructuredTag(msg, at)) return parseStructured(msg, at + STRUCTURED_TAG.length);
  // InfoS: the tag is inside the quoted message; pairs follow the closing quote.
  let inner: string;
  let rest = "";
  if (at > 0 && msg.charCodeAt(at - 1) === 34) {
    const q = readGoQuoted(msg, at - 1);
    if (!q) return { ok: false, message: "STAGE line with an unterminated quoted message" };
    inner = q.value;
    rest = msg.slice(q.end);
  } else {
    inner = msg.slice(at);
  }
  // inner = "STAGE/<stage> ..."
  let tagEnd = 6;
  while (tagEnd < inner.length) {
    const c = inner.charCodeAt(tagEnd);
    if (c === 32 || c === 9 || c === 58 || c === 44 || c === 34) break;
    tagEnd++;
  }
  const stageName = inner.slice(6, tagEnd).toLowerCase();
  if (!isStage(stageName)) {
    return {
      ok: false,
      message: `unknown stage "STAGE/${inner.slice(6, tagEnd)}" (expected watch, enqueue, dequeue, read or write)`,
    };
  }
  const body = rest ? inner.slice(tagEnd) + " " + rest : inner.slice(tagEnd);
  const f = scanFields(body, 0);
  if (f.error) return { ok: false, message: `STAGE/${stageName}: ${f.error}` };
  return parseFields(stageName, f);
}

/** The pairs after the structured tag (from `from`): `stage=` names the stage, the rest as usual. */
function parseStructured(msg: string, from: number): StageParse {
  const f = scanFields(msg, from);
  if (f.error) return { ok: false, message: `"STAGE": ${f.error}` };
  const i = f.keys.findIndex((k) => k.toLowerCase() === "stage");
  const stageName = i < 0 ? undefined : f.values[i].toLowerCase();
  if (stageName === undefined || !isStage(stageName)) {
    return {
      ok: false,
      message:
        i < 0
          ? '"STAGE" line without stage=… (expected stage="watch", "enqueue", "dequeue", "read" or "write")'
          : `unknown stage "${f.values[i]}" (expected watch, enqueue, dequeue, read or write)`,
    };
  }
  f.keys.splice(i, 1);
  f.values.splice(i, 1);
  return parseFields(stageName, f);
}

function parseFields(stageName: Stage, f: Fields): StageParse {
  const r = new Roles(f, stageName);
  const words = f.words.map(cleanWord).filter((w) => w.length > 0);
  const parsed = build(stageName, r, words);
  if (parsed.ok && r.warnings) parsed.warnings = r.warnings.map((w) => `STAGE/${stageName}: ${w}`);
  return parsed;
}

function positionalKey(words: string[]): string | undefined {
  return words.find((w) => NS_NAME.test(w));
}

function build(stage: Stage, r: Roles, words: string[]): StageParse {
  const rawKey = r.get("key");
  let key = rawKey !== undefined ? keyFromValue(rawKey) : positionalKey(words);
  // An empty key means "no Foo" only on a watch line (a Deployment no Foo owns). The other
  // stages are all about a Foo's key: there an empty one is no key at all.
  if (key === "" && stage !== "watch") key = positionalKey(words);
  const extra = r.extra;
  switch (stage) {
    case "watch": {
      const kindRaw = r.get("kind") ?? words.find((w) => KINDS[w.toLowerCase()] !== undefined);
      const eventRaw =
        r.get("event") ?? words.find((w) => WATCH_VERBS[w.toLowerCase()] !== undefined);
      const kind = kindRaw === undefined ? undefined : kindOf(kindRaw);
      const event = eventRaw === undefined ? undefined : WATCH_VERBS[eventRaw.toLowerCase()];
      if (eventRaw !== undefined && event === undefined) {
        return {
          ok: false,
          message: `STAGE/watch: unknown event "${eventRaw}" (expected add, update or delete)`,
        };
      }
      let name = r.get("name");
      let ns = r.get("ns");
      if (key === undefined && name !== undefined && (kind ?? "Foo") === "Foo") {
        key = ns ? `${ns}/${name}` : name;
      }
      if (key === undefined)
        return { ok: false, message: "STAGE/watch without a key (key=ns/name)" };
      if (name === undefined && key) {
        const slash = key.indexOf("/");
        name = slash >= 0 ? key.slice(slash + 1) : key;
        ns ??= slash >= 0 ? key.slice(0, slash) : undefined;
      }
      const assumed: string[] = [];
      if (kind === undefined) assumed.push("kind");
      if (event === undefined) assumed.push("event");
      // The exercise's only watch line is the Foo add handler, so that is the reading of a
      // bare "STAGE/watch ns/name"; the assumption is recorded in extra.assumed.
      const f = opened(
        key,
        assumed.length ? { ...extra, assumed: assumed.join(",") } : extra,
        "watch",
      );
      f.kind = kind ?? "Foo";
      f.event = event ?? "add";
      f.name = name ?? "";
      f.ns = ns;
      f.rv = r.get("rv");
      f.oldRv = r.get("oldRv");
      return { ok: true, fields: f };
    }
    case "enqueue": {
      if (key === undefined)
        return { ok: false, message: "STAGE/enqueue without a key (key=ns/name)" };
      const f = opened(key, extra, "enqueue");
      f.len = r.num("len");
      const mergedRaw = r.get("merged");
      f.merged = mergedRaw === undefined ? undefined : mergedOf(mergedRaw);
      const cause = r.get("cause");
      if (cause !== undefined && CAUSES[cause.toLowerCase()]) f.cause = CAUSES[cause.toLowerCase()];
      else {
        const w = words.find((x) => CAUSES[x.toLowerCase()] !== undefined && x !== key);
        if (w) f.cause = CAUSES[w.toLowerCase()];
      }
      f.causeSeq = r.num("causeSeq");
      f.delayMs = r.durationMs("delay");
      return { ok: true, fields: f };
    }
    case "dequeue": {
      if (key === undefined)
        return { ok: false, message: "STAGE/dequeue without a key (key=ns/name)" };
      const f = opened(key, extra, "dequeue");
      f.len = r.num("len");
      f.worker = r.num("worker");
      return { ok: true, fields: f };
    }
    case "read": {
      if (key === undefined)
        return { ok: false, message: "STAGE/read without a key (key=ns/name)" };
      const f = opened(key, extra, "read");
      f.rv = r.get("rv");
      f.generation = r.num("generation");
      f.found = bool(r.get("found"));
      if (f.found === undefined && words.some((w) => /^not[-_ ]?found$/i.test(w))) f.found = false;
      f.worker = r.num("worker");
      return { ok: true, fields: f };
    }
    case "write":
      return buildWrite(r, words, key, extra);
  }
}

function buildWrite(
  r: Roles,
  words: string[],
  key: string | undefined,
  extra: Record<string, unknown> | undefined,
): StageParse {
  const verbRaw = r.get("verb") ?? words.find((w) => WRITE_VERBS[w.toLowerCase()] !== undefined);
  let verb: string | undefined = verbRaw === undefined ? undefined : writeVerbOf(verbRaw);
  let target = r.get("target") ?? words.find((w) => TARGET.test(w));
  if (target === undefined) {
    const kindWord = words.find((w) => KINDS[w.toLowerCase()] !== undefined);
    const objKey = positionalKey(words) ?? key;
    if (kindWord !== undefined && objKey !== undefined) {
      target = `${PLURAL[kindOf(kindWord)]}/${objKey}`;
      const status = words.some((w) => w.toLowerCase() === "status") || verb === "updateStatus";
      if (status && target.startsWith("foos/")) target += "/status";
    }
  }
  if (verb === "update" && target?.endsWith("/status")) verb = "updateStatus";
  if (verb === undefined && target === undefined) {
    return {
      ok: false,
      message: "STAGE/write without a verb or target (verb=create target=deployments/ns/name)",
    };
  }
  if (key === undefined && target !== undefined) {
    // deployments/ns/name or foos/ns/name/status: the object is the Foo's namesake.
    const parts = target.split("/");
    if (parts.length >= 3) key = `${parts[1]}/${parts[2]}`;
  }
  if (key === undefined) return { ok: false, message: "STAGE/write without a key or target" };
  const f = opened(key, extra, "write");
  f.verb = verb ?? "";
  f.target = target ?? "";
  const codeRaw = r.get("code");
  let code = num(codeRaw);
  let reason = r.get("reason");
  if (code === undefined && codeRaw !== undefined) reason ??= codeRaw;
  if (code === undefined) {
    const w = words.find((x) => /^[1-5]\d\d$/.test(x));
    if (w) code = Number(w);
  }
  if (code === undefined && reason === undefined) {
    const w = words.find((x) => /^(conflict|alreadyexists|notfound|error|failed)$/i.test(x));
    if (w) reason = w;
  }
  f.code = code;
  f.reason = reason;
  f.rv = r.get("rv");
  const changedRaw = r.get("changed");
  f.changed = bool(changedRaw);
  // `changed=status.lastSyncTime` names the fields rather than saying yes/no.
  f.fields = r.get("fields") ?? (f.changed === undefined ? changedRaw : undefined);
  f.worker = r.num("worker");
  return { ok: true, fields: f };
}

/** A fresh record for the line's fields (the general path is the rare one: no record is reused). */
function opened(
  key: string,
  extra: Record<string, unknown> | undefined,
  stage: Stage,
): StageFields {
  const f = stageFields();
  f.key = key;
  f.extra = extra;
  f.stage = stage;
  return f;
}
