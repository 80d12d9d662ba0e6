/**
 * The event model: one record per occurrence of a controller stage, plus the two kinds of
 * record that are not stages — the end of a pass, and context lines kept as annotations.
 *
 * Invariants every producer (our controller's probe, the klog reader, the JSONL reader) keeps:
 * - `seq` is assigned in arrival order by whoever owns the stream (the server's hub live, the
 *   reader on replay), starts at 1 and strictly increases; it is the identity of an event.
 * - `ts` is microseconds since the Unix epoch. Replayed klog lines may be out of time order
 *   (different goroutines); `seq` keeps the file's order, `ts` keeps the clock's.
 * - `key` is the workqueue key "namespace/name" of the Foo the event concerns; "" when a watch
 *   event resolved to no Foo (an orphaned Deployment).
 * - Fields a source cannot know are absent, never guessed: a free-form log line without a
 *   resourceVersion has no `rv`.
 * - Unknown fields read from a trace file are kept in `extra` so a round trip loses nothing.
 *
 * The contract (where each stage fires, what it carries) is docs/stages.md.
 */

/** The five stages, in the order of a pass: every list of stages is this one. */
export const STAGES = ["watch", "enqueue", "dequeue", "read", "write"] as const;
export type Stage = (typeof STAGES)[number];

/** Every kind of record: the stages, then a pass's end and a note (a store's kind codes). */
export const EVENT_KINDS = [...STAGES, "done", "note"] as const;

/** What every record carries. */
export interface EventBase {
  seq: number;
  /** Microseconds since the Unix epoch. */
  ts: number;
  /** Workqueue key "ns/name"; "" when it resolves to no Foo. */
  key: string;
  /** Source location of the log line or probe call that produced the event: "controller.go:131". */
  src?: string;
  /** The raw log line, for events read from a text log. */
  raw?: string;
  /** 1-based line number in the file it was read from. */
  line?: number;
  /** Fields this version of the model does not know, preserved for round trips. */
  extra?: Record<string, unknown>;
}

export type WatchVerb = "add" | "update" | "delete";

/** An informer event handler registered by the controller acted on an event. */
export interface WatchEvent extends EventBase {
  stage: "watch";
  /** "Foo" | "Deployment" (any kind a controller watches). */
  kind: string;
  event: WatchVerb;
  /** Namespace and name of the object the event is about (not necessarily the Foo). */
  ns?: string;
  name: string;
  /** The object's resourceVersion (the new one for updates). */
  rv?: string;
  /** For updates: the old object's resourceVersion; equal to `rv` on a resync re-delivery. */
  oldRv?: string;
  /**
   * An add the informer delivered from its initial list, as it started (client-go's
   * `isInInitialList`): the object existed before, it was not created now. Absent = an add from
   * the watch, or not known (a log that does not say).
   */
  initial?: boolean;
}

/**
 * Whether the watch line did not say its event — a bare `STAGE/watch ns/name`, read as an add
 * (`extra.assumed`, see klog/stage-line.ts): a learner who prints it in enqueueFoo prints it on
 * update too.
 */
export function eventAssumed(e: Pick<WatchEvent, "extra">): boolean {
  const assumed = e.extra?.assumed;
  return typeof assumed === "string" && assumed.includes("event");
}

/** Whether the watch line did not say its kind (read as Foo): it may be the Deployment's event. */
export function kindAssumed(e: Pick<WatchEvent, "extra">): boolean {
  const assumed = e.extra?.assumed;
  return typeof assumed === "string" && assumed.includes("kind");
}

export type EnqueueCause = "watch" | "resync" | "retry";

/** A key was added to the workqueue. */
export interface EnqueueEvent extends EventBase {
  stage: "enqueue";
  /** Queue length (ready items) after the add. */
  len?: number;
  /**
   * Whether the add was merged instead of appending: "dirty" when the key was already waiting,
   * "processing" when a worker holds the key (the add is parked until Done). Absent = unknown.
   */
  merged?: false | "dirty" | "processing";
  /** Why the key was added. Absent = unknown (free-form logs). */
  cause?: EnqueueCause;
  /** seq of the watch event this add came from (cause "watch"). */
  causeSeq?: number;
  /** For retries: the rate limiter's delay before the add became ready. */
  delayMs?: number;
  /** Not seen but inferred from what was (`loopscope proxy`: a watch event reached the controller). */
  inferred?: boolean;
}

/** A worker's Get returned a key: a pass begins. */
export interface DequeueEvent extends EventBase {
  stage: "dequeue";
  len?: number;
  worker?: number;
}

/** The lister returned the Foo (or did not find it). */
export interface ReadEvent extends EventBase {
  stage: "read";
  rv?: string;
  generation?: number;
  /** false when the lister said NotFound. Absent = found (or unknown). */
  found?: boolean;
  worker?: number;
}

export type WriteVerb = "create" | "update" | "updateStatus" | "patch" | "delete";

/** An API call the reconcile made returned. */
export interface WriteEvent extends EventBase {
  stage: "write";
  verb: WriteVerb | string;
  /** "deployments/ns/name" or "foos/ns/name/status". */
  target: string;
  /** HTTP status of the response (201, 200, 409 …). */
  code?: number;
  /** Kubernetes Status reason on failure ("Conflict", "AlreadyExists", …) or a transport error. */
  reason?: string;
  /** resourceVersion the API returned. */
  rv?: string;
  /** Whether the object changed. A no-op update returns the same resourceVersion. */
  changed?: boolean;
  /** Changed field paths ("spec.replicas", "status.availableReplicas"), when known. */
  fields?: string[];
  worker?: number;
}

export type PassOutcome = "synced" | "requeued" | "dropped";

/** The worker called Done: the pass that began at the key's last dequeue ends. */
export interface PassEndEvent extends EventBase {
  stage: "done";
  outcome: PassOutcome;
  error?: string;
  /** For "requeued": the rate limiter's delay. */
  delayMs?: number;
  worker?: number;
  /** Not seen but inferred from what was (`loopscope proxy`: the pass's writes stopped). */
  inferred?: boolean;
}

/** A non-stage line worth keeping beside the stages (controller messages, errors, events). */
export interface AnnotationEvent extends EventBase {
  stage: "note";
  /** klog severity letter, when read from klog. */
  level?: "I" | "W" | "E" | "F";
  text: string;
}

export type StageEvent = WatchEvent | EnqueueEvent | DequeueEvent | ReadEvent | WriteEvent;
export type TraceEvent = StageEvent | PassEndEvent | AnnotationEvent;
export type TraceEventKind = TraceEvent["stage"];

/** An event before the stream's owner numbered it. */
export type UnsequencedEvent = DistributiveOmit<TraceEvent, "seq">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
