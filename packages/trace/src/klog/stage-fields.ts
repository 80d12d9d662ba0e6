/**
 * A STAGE line taken apart (by stage-line.ts) as one record, and the one place an event is built
 * from it.
 *
 * A reader that stores rows instead of events (the page's replay worker: typed-array columns)
 * takes the record as it is (`StageRowTaker`), and no event object is made for the line at all:
 * on a klog file of a million lines that object, and walking its fields to encode it, cost more
 * than reading the line.
 */
import type { Stage, TraceEvent } from "../event.ts";
import { fieldList } from "./spellings.ts";

/** Where a line's event is read: its time, source location and line number, refilled per line. */
export interface LineContext {
  ts: number;
  /** Undefined for a line without a klog header. */
  src: string | undefined;
  line: number;
  /**
   * The seq the line's event takes. stageEvent numbers the event with it as it builds it: the
   * reader's own `e.seq = …` on events of a dozen shapes is a megamorphic store per event.
   */
  seq: number;
}

/** Every field a STAGE line may carry; undefined when the line does not. */
export interface StageFields {
  stage: Stage;
  key: string;
  rv: string | undefined;
  oldRv: string | undefined;
  len: number | undefined;
  worker: number | undefined;
  generation: number | undefined;
  code: number | undefined;
  kind: string | undefined;
  event: "add" | "update" | "delete" | undefined;
  name: string | undefined;
  ns: string | undefined;
  verb: string | undefined;
  target: string | undefined;
  reason: string | undefined;
  cause: "watch" | "resync" | "retry" | undefined;
  merged: false | "dirty" | "processing" | undefined;
  found: boolean | undefined;
  changed: boolean | undefined;
  /** A watch add from the informer's initial list (`initial=true`). */
  initial: boolean | undefined;
  /** `fields=` as written: a comma-separated list (the event's `fields` is its non-empty parts). */
  fields: string | undefined;
  causeSeq: number | undefined;
  delayMs: number | undefined;
  /** Fields no role of the stage takes, as written (a row holds none of these three). */
  extra: Record<string, unknown> | undefined;
  /** The number of the line's source location (one per distinct one): equal numbers, equal texts. */
  srcId: number;
}

/**
 * Takes a klog log's canonical lines as rows: STAGE lines (`take`) and the controller's
 * "Successfully synced" lines (`takeSynced`: a pass's end; of `f` only the key and `srcId` are
 * set). Each returns false to decline (the line then becomes an event as usual). The line is
 * text[start, end) (the event's `raw`); its row takes the seq `at.seq`.
 */
export interface StageRowTaker {
  take(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean;
  takeSynced(f: StageFields, at: LineContext, text: string, start: number, end: number): boolean;
}

/** An empty record (one per reader: it is refilled for every line). */
export function stageFields(): StageFields {
  return {
    stage: "watch",
    key: "",
    rv: undefined,
    oldRv: undefined,
    len: undefined,
    worker: undefined,
    generation: undefined,
    code: undefined,
    kind: undefined,
    event: undefined,
    name: undefined,
    ns: undefined,
    verb: undefined,
    target: undefined,
    reason: undefined,
    cause: undefined,
    merged: undefined,
    found: undefined,
    changed: undefined,
    initial: undefined,
    fields: undefined,
    causeSeq: undefined,
    delayMs: undefined,
    extra: undefined,
    srcId: -1,
  };
}

/**
 * The event of a STAGE line read into `f`, read `at` from the line `raw`. Its members are stored
 * by name in one order — `ts`, `key`, `extra` when there is any, `stage`, the stage's own, then
 * `src`, `raw`, `line`, `seq` — so the events of a stage share a few shapes (a spread, or a store
 * by a computed name, kept each line's event on V8's slow generic path).
 */
export function stageEvent(f: StageFields, at: LineContext, raw: string): TraceEvent {
  const { key, stage } = f;
  const e = (
    f.extra === undefined ? { ts: at.ts, key, stage } : { ts: at.ts, key, extra: f.extra, stage }
  ) as Record<string, unknown>;
  switch (stage) {
    case "watch":
      e.kind = f.kind;
      e.event = f.event;
      e.name = f.name;
      if (f.ns !== undefined) e.ns = f.ns;
      if (f.rv !== undefined) e.rv = f.rv;
      if (f.oldRv !== undefined) e.oldRv = f.oldRv;
      if (f.initial !== undefined) e.initial = f.initial;
      break;
    case "enqueue":
      if (f.len !== undefined) e.len = f.len;
      if (f.merged !== undefined) e.merged = f.merged;
      if (f.cause !== undefined) e.cause = f.cause;
      if (f.causeSeq !== undefined) e.causeSeq = f.causeSeq;
      if (f.delayMs !== undefined) e.delayMs = f.delayMs;
      break;
    case "dequeue":
      if (f.len !== undefined) e.len = f.len;
      if (f.worker !== undefined) e.worker = f.worker;
      break;
    case "read":
      if (f.rv !== undefined) e.rv = f.rv;
      if (f.generation !== undefined) e.generation = f.generation;
      if (f.found !== undefined) e.found = f.found;
      if (f.worker !== undefined) e.worker = f.worker;
      break;
    case "write":
      e.verb = f.verb;
      e.target = f.target;
      if (f.code !== undefined) e.code = f.code;
      if (f.reason !== undefined) e.reason = f.reason;
      if (f.rv !== undefined) e.rv = f.rv;
      if (f.changed !== undefined) e.changed = f.changed;
      if (f.fields !== undefined) e.fields = fieldList(f.fields);
      if (f.worker !== undefined) e.worker = f.worker;
      break;
  }
  if (at.src !== undefined) e.src = at.src;
  e.raw = raw;
  e.line = at.line;
  e.seq = at.seq;
  return e as unknown as TraceEvent;
}
