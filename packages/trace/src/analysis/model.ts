/**
 * What the analysis derives from a stream of events. These are the shapes the CLI prints, the
 * server serves, and the dashboard draws; the incremental Analyzer keeps them current as events
 * arrive (live) or as a file is read (replay).
 *
 * A **pass** is one run of the reconcile for one key: it opens at a dequeue and closes at the
 * worker's Done (a `done` event). The workqueue never hands one key to two workers at once, so
 * every event of a key between its dequeue and its done belongs to that pass. Logs without
 * dequeue lines still yield passes from pass-end markers alone (`fromMarkers: true`).
 */
import type { PassOutcome, Stage } from "../event.ts";

export const PASS_CAUSES = ["external", "self", "resync", "retry", "unknown"] as const;
export type PassCause = (typeof PASS_CAUSES)[number];
/** A cause's index in PASS_CAUSES: how the analysis's tables store it. */
export const CAUSE_CODE: Readonly<Record<PassCause, number>> = {
  external: 0,
  self: 1,
  resync: 2,
  retry: 3,
  unknown: 4,
};

/** One enqueue merged into a pass (all adds of the key since its previous pass began). */
export interface Trigger {
  enqueueSeq: number;
  /** The watch event the enqueue came from, when known. */
  watchSeq?: number;
  /** The write whose echo the watch event was (cause "self"). */
  writeSeq?: number;
  cause: PassCause;
  /** true when the classification is heuristic (no resourceVersions to match). */
  inferred: boolean;
}

/**
 * Passes are owned by the Analyzer and change while they are open: read them, never modify them
 * (empty lists are one shared frozen array).
 */
export interface Pass {
  key: string;
  /** 0-based index among the key's passes, over all of its Foo's lives (a stable id). */
  index: number;
  /**
   * 1-based number among the passes of its Foo's life — what labels, narration and the excerpt
   * show: a Foo created again under the same name counts its passes from 1 again.
   */
  number: number;
  dequeueSeq?: number;
  endSeq?: number;
  /** µs; dequeue time, or the first event of the pass when there is no dequeue. */
  start: number;
  /** µs; absent while the pass is open. */
  end?: number;
  worker?: number;
  triggers: Trigger[];
  /** self only when every trigger is self; otherwise the first non-self trigger's cause. */
  cause: PassCause;
  inferred: boolean;
  readSeq?: number;
  writeSeqs: number[];
  /** The writes among `writeSeqs` known to have changed their object. */
  changingWriteSeqs?: number[];
  changingWrites: number;
  noopWrites: number;
  conflicts: number;
  /**
   * The hot-loop rule's count at this pass: how many self-triggered passes that each made a
   * changing write run up to this one, it included (passes between them that only stumbled on a
   * 409 are bridged, not counted); 0 when this pass is not one. From the Analyzer's threshold on
   * (AnalyzerOptions.hotLoopThreshold) the run is a hot loop.
   */
  loopRun: number;
  /** Field paths changed by this pass's writes, when known. */
  changedFields: string[];
  outcome?: PassOutcome;
  /** true when this pass was built from a pass-end marker with no dequeue line. */
  fromMarkers: boolean;
}

export type StageCounts = Record<Stage, number>;
export type CauseCounts = Record<PassCause, number>;

export interface KeySummary {
  key: string;
  /** µs of the key's first event. */
  firstTs: number;
  byStage: StageCounts;
  passes: number;
  passCauses: CauseCounts;
  /** Passes whose every trigger was the controller's own write. */
  selfTriggered: number;
  writes: number;
  changingWrites: number;
  noopWrites: number;
  conflicts: number;
  /**
   * Passes from the key's first watch event until it was first quiescent; null if never. That
   * event is the Foo's creation — or, when `listed`, the informer's initial list that showed it.
   */
  reconcilesForCreate: number | null;
  /**
   * This life began with an add from the informer's initial list (a watch event with `initial`):
   * the Foo existed before the trace, and its first passes are the controller catching up with
   * it, not a creation.
   */
  listed: boolean;
  quiescent: boolean;
  /**
   * The key's own object was deleted, as a watch event of this life said, and not created again
   * (`loopscope proxy` records the delete; sample-controller and our FooController do not watch
   * Foo deletions, so their traces never say it: a live dashboard asks the cluster instead).
   */
  deleted: boolean;
  /**
   * This life had a hot loop (its finding). It stays true once the loop has stopped: `quiescent`
   * says whether it has.
   */
  hotLoop: boolean;
}

export type FindingKind =
  "other-controller" | "hot-loop" | "conflict" | "retry" | "error" | "not-found" | "orphan";

export interface Finding {
  kind: FindingKind;
  key: string;
  detail: string;
  /**
   * How many times it occurred, over every life of the Foo (the detail's "×N"); for a hot loop,
   * the passes of its latest run.
   */
  count: number;
  /** Lives of the Foo its occurrences span (1 unless the Foo was deleted and made again). */
  lives: number;
  /** Field paths that differ on every pass of a hot loop. */
  fields?: string[];
  /** seq of the first event the finding is about. */
  seq?: number;
  /** seq of the latest (a finding counts every occurrence: which life of a Foo it is about). */
  lastSeq?: number;
}

/** The whole analysis as plain data (what `Analyzer.snapshot()` returns). */
export interface AnalysisSnapshot {
  events: number;
  byStage: StageCounts;
  /** Per key, in order of first appearance. */
  keys: Record<string, KeySummary>;
  findings: Finding[];
}

export interface Diagnostic {
  /** 1-based line number in the input. */
  line: number;
  message: string;
  /**
   * "error": the line was not read (a STAGE line that could not be parsed, a corrupt record);
   * "warn": read, with something lost or assumed (a torn last line, a missing header);
   * "info": a statement about the whole input (klog's missing year). Absent = "error".
   */
  level?: "info" | "warn" | "error";
}
