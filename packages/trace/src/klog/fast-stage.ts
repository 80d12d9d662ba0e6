/**
 * The fast path for the canonical STAGE line (`STAGE/<stage> key=value …` with bare values and
 * the canonical key names). It builds the same event as parseStageMessage would, without the
 * general scanner's intermediate arrays, maps and spelling tables — the difference between
 * ~20 and ~200 MB/s on big logs. Anything unusual (a quoted value, a positional word, another
 * spelling, an unknown key) returns undefined and the caller takes the general path, so the
 * two paths can never disagree on what they both accept (a test checks this).
 */
import type { TraceEvent, UnsequencedEvent } from "../event.ts";

const STAGE_NAMES = ["watch", "enqueue", "dequeue", "read", "write"] as const;

/** One bit per canonical key, set as the line is scanned. */
const B = {
  key: 1 << 0,
  rv: 1 << 1,
  oldRv: 1 << 2,
  len: 1 << 3,
  worker: 1 << 4,
  generation: 1 << 5,
  code: 1 << 6,
  kind: 1 << 7,
  event: 1 << 8,
  name: 1 << 9,
  ns: 1 << 10,
  verb: 1 << 11,
  target: 1 << 12,
  reason: 1 << 13,
  cause: 1 << 14,
  found: 1 << 15,
  changed: 1 << 16,
  fields: 1 << 17,
};

/** The keys each stage takes; a line with any other key goes the general way. */
const ALLOWED: Record<(typeof STAGE_NAMES)[number], number> = {
  watch: B.key | B.rv | B.oldRv | B.kind | B.event | B.name | B.ns,
  enqueue: B.key | B.len | B.cause,
  dequeue: B.key | B.len | B.worker,
  read: B.key | B.rv | B.generation | B.found | B.worker,
  write: B.key | B.verb | B.target | B.code | B.reason | B.rv | B.changed | B.fields | B.worker,
};

const KEYS_BY_LENGTH: string[][] = [];
for (const k of Object.keys(B)) (KEYS_BY_LENGTH[k.length] ??= []).push(k);

/** The canonical key spelled at text[i, i+len), without allocating; undefined if none. */
function keyAt(text: string, i: number, len: number): string | undefined {
  const candidates = KEYS_BY_LENGTH[len];
  if (candidates === undefined) return undefined;
  for (const k of candidates) if (text.startsWith(k, i)) return k;
  return undefined;
}

/**
 * Parses the message starting at `from` (which points at "STAGE/"). A key equal to `reuse` comes
 * back as `reuse` itself: a pass's lines name the same key one after another, and the reader
 * hands in the previous one rather than cutting a new copy per line.
 */
export function fastStage(
  text: string,
  from: number,
  reuse?: string,
  at?: LineContext,
): UnsequencedEvent | TraceEvent | undefined {
  let i = from + 6;
  let stage: (typeof STAGE_NAMES)[number] | undefined;
  for (const s of STAGE_NAMES) {
    if (text.startsWith(s, i) && text.charCodeAt(i + s.length) === 32) {
      stage = s;
      break;
    }
  }
  if (stage === undefined) return undefined;
  i += stage.length;
  if (text.indexOf("\t", i) >= 0) return undefined;
  const n = text.length;
  let key: string | undefined;
  let rv: string | undefined;
  let oldRv: string | undefined;
  let len: number | undefined;
  let worker: number | undefined;
  let kind: string | undefined;
  let event: string | undefined;
  let name: string | undefined;
  let ns: string | undefined;
  let verb: string | undefined;
  let target: string | undefined;
  let code: number | undefined;
  let reason: string | undefined;
  let generation: number | undefined;
  let found: boolean | undefined;
  let changed: boolean | undefined;
  let fields: string[] | undefined;
  let cause: string | undefined;
  let seen = 0;
  while (i < n) {
    while (i < n && text.charCodeAt(i) === 32) i++;
    if (i >= n) break;
    const eq = text.indexOf("=", i);
    if (eq < 0) return undefined;
    let sp = text.indexOf(" ", i);
    if (sp < 0) sp = n;
    if (sp < eq || eq === i) return undefined; // a positional word
    const c = text.charCodeAt(eq + 1);
    if (c === 34 || c === 123 || c === 91) return undefined; // quoted or JSON value
    const k = keyAt(text, i, eq - i);
    if (k === undefined) return undefined;
    if (k === "key" && reuse !== undefined && reuse.length === sp - eq - 1) {
      if (text.startsWith(reuse, eq + 1)) {
        i = sp;
        seen |= B.key;
        key = reuse;
        continue;
      }
    }
    const v = text.slice(eq + 1, sp);
    i = sp;
    if (v === "") {
      if (k === "key") key = "";
      continue;
    }
    switch (k) {
      case "key":
        seen |= B.key;
        key = v;
        break;
      case "rv":
        seen |= B.rv;
        rv = v;
        break;
      case "oldRv":
        seen |= B.oldRv;
        oldRv = v;
        break;
      case "len":
        seen |= B.len;
        len = int(v);
        if (len === undefined) return undefined;
        break;
      case "worker":
        seen |= B.worker;
        worker = int(v);
        if (worker === undefined) return undefined;
        break;
      case "generation":
        seen |= B.generation;
        generation = int(v);
        if (generation === undefined) return undefined;
        break;
      case "code":
        seen |= B.code;
        code = int(v);
        if (code === undefined) return undefined;
        break;
      case "kind":
        seen |= B.kind;
        kind = v;
        break;
      case "event":
        seen |= B.event;
        event = v;
        break;
      case "name":
        seen |= B.name;
        name = v;
        break;
      case "ns":
        seen |= B.ns;
        ns = v;
        break;
      case "verb":
        seen |= B.verb;
        verb = v;
        break;
      case "target":
        seen |= B.target;
        target = v;
        break;
      case "reason":
        seen |= B.reason;
        reason = v;
        break;
      case "cause":
        seen |= B.cause;
        cause = v;
        break;
      case "found":
        seen |= B.found;
        if (v !== "true" && v !== "false") return undefined;
        found = v === "true";
        break;
      case "changed":
        seen |= B.changed;
        if (v !== "true" && v !== "false") return undefined;
        changed = v === "true";
        break;
      case "fields":
        seen |= B.fields;
        fields = v.split(",").filter((f) => f.length > 0);
        break;
      default:
        return undefined;
    }
  }
  if ((seen & ~ALLOWED[stage]) !== 0) return undefined;
  if (key === undefined && stage === "write" && target !== undefined) key = keyOfTarget(target);
  // An empty key is a watch's "no Foo"; on any other stage the general path reports it.
  if (key === undefined || (key === "" && stage !== "watch")) return undefined;
  switch (stage) {
    case "watch": {
      if (
        (kind !== "Foo" && kind !== "Deployment") ||
        (event !== "add" && event !== "update" && event !== "delete")
      ) {
        return undefined;
      }
      if (name === undefined) {
        if (key === "") return undefined;
        const slash = key.indexOf("/");
        name = slash >= 0 ? key.slice(slash + 1) : key;
        if (ns === undefined && slash >= 0) ns = key.slice(0, slash);
      }
      if (at && ns !== undefined && rv !== undefined && oldRv !== undefined) {
        // Whole: ts, key, stage, kind, event, name, ns, rv, oldRv, src, raw, line, seq.
        const { ts, src, line } = at;
        return { ts, key, stage, kind, event, name, ns, rv, oldRv, src, raw: text, line, seq: 0 };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage, kind, event, name };
      if (ns !== undefined) e.ns = ns;
      if (rv !== undefined) e.rv = rv;
      if (oldRv !== undefined) e.oldRv = oldRv;
      return finish(e, text, at);
    }
    case "enqueue": {
      if (cause !== undefined && cause !== "watch" && cause !== "resync" && cause !== "retry")
        return undefined;
      if (at && len !== undefined) {
        const { ts, src, line } = at;
        if (cause === undefined) return { ts, key, stage, len, src, raw: text, line, seq: 0 };
        const c = cause as "watch" | "resync" | "retry";
        return { ts, key, stage, len, cause: c, src, raw: text, line, seq: 0 };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (len !== undefined) e.len = len;
      if (cause !== undefined) e.cause = cause as "watch" | "resync" | "retry";
      return finish(e, text, at);
    }
    case "dequeue": {
      if (at && len !== undefined && worker !== undefined) {
        const { ts, src, line } = at;
        return { ts, key, stage, len, worker, src, raw: text, line, seq: 0 };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (len !== undefined) e.len = len;
      if (worker !== undefined) e.worker = worker;
      return finish(e, text, at);
    }
    case "read": {
      if (at && rv !== undefined && found === undefined && worker === undefined) {
        const { ts, src, line } = at;
        if (generation === undefined) return { ts, key, stage, rv, src, raw: text, line, seq: 0 };
        return { ts, key, stage, rv, generation, src, raw: text, line, seq: 0 };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage };
      if (rv !== undefined) e.rv = rv;
      if (generation !== undefined) e.generation = generation;
      if (found !== undefined) e.found = found;
      if (worker !== undefined) e.worker = worker;
      return finish(e, text, at);
    }
    case "write": {
      if (
        verb !== "create" &&
        verb !== "update" &&
        verb !== "updateStatus" &&
        verb !== "patch" &&
        verb !== "delete"
      ) {
        return undefined;
      }
      if (target === undefined) return undefined;
      if (verb === "update" && target.endsWith("/status")) return undefined; // the general path renames it
      if (
        at &&
        code !== undefined &&
        reason === undefined &&
        changed === undefined &&
        fields === undefined &&
        worker === undefined
      ) {
        const { ts, src, line } = at;
        if (rv === undefined) {
          return { ts, key, stage, verb, target, code, src, raw: text, line, seq: 0 };
        }
        return { ts, key, stage, verb, target, code, rv, src, raw: text, line, seq: 0 };
      }
      const e: UnsequencedEvent = { ts: 0, key, stage, verb, target };
      if (code !== undefined) e.code = code;
      if (reason !== undefined) e.reason = reason;
      if (rv !== undefined) e.rv = rv;
      if (changed !== undefined) e.changed = changed;
      if (fields !== undefined) e.fields = fields;
      if (worker !== undefined) e.worker = worker;
      return finish(e, text, at);
    }
  }
}

/**
 * Where a line's event is read: given, fastStage returns the whole event of the line — with `ts`,
 * `src`, `raw` and `line`, and `seq` for the reader to number — in the property order the reader
 * has always produced (its fields, then src, raw, line, seq). The common shapes are built in one
 * literal: adding four or five properties to a built object is a hidden-class transition each and
 * a separately allocated property array, per line.
 */
export interface LineContext {
  ts: number;
  src: string;
  line: number;
  /**
   * The seq the line's event takes. fastStageBytes numbers its events with it as it builds them:
   * the reader's own `e.seq = …` on events of a dozen shapes is a megamorphic store per event.
   * fastStage (the text path, rarer) leaves 0 for the reader to set.
   */
  seq: number;
  /** The key of fastStageBytes's last event: read from here, not from the event (same reason). */
  key: string | undefined;
}

function finish(e: UnsequencedEvent, raw: string, at: LineContext | undefined): UnsequencedEvent {
  if (at) {
    e.ts = at.ts;
    e.src = at.src;
    e.raw = raw;
    e.line = at.line;
    (e as TraceEvent).seq = 0; // numbered by the reader, like the literals'
  }
  return e;
}

function int(v: string): number | undefined {
  let x = 0;
  for (let i = 0; i < v.length; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    x = x * 10 + d;
  }
  return v.length > 0 && v.length < 16 ? x : undefined;
}

/** deployments/ns/name or foos/ns/name/status → ns/name (what the general path derives too). */
function keyOfTarget(target: string): string | undefined {
  const a = target.indexOf("/");
  const b = a < 0 ? -1 : target.indexOf("/", a + 1);
  if (b < 0) return undefined;
  const c = target.indexOf("/", b + 1);
  return target.slice(a + 1, c < 0 ? target.length : c);
}
