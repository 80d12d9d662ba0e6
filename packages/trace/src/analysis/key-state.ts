/**
 * Everything the Analyzer remembers about one key. Bounded per key except `rows` (one per pass,
 * which the views need) — the maps of recent resourceVersions and watches are capped.
 */
import type { PassOutcome } from "../event.ts";
import type { KeySummary, Pass, PassCause } from "./model.ts";
import type { RvRings } from "./rv-ring.ts";

/** How a watch event was classified when it arrived. */
export interface WatchClass {
  seq: number;
  cause: PassCause;
  inferred: boolean;
  writeSeq: number | undefined;
}

/** A successful write whose effect is not settled yet: changed or not, echoed or not. */
export interface OpenWrite {
  seq: number;
  ts: number;
  /** The row of the pass that wrote (see PassTable). */
  pass: number;
  /** Which kind's watch event would be its echo (undefined: none expected). */
  echoKind: "Deployment" | "Foo" | undefined;
  /** Whether it changed the object; undefined until an echo proves it or time says no. */
  changed: boolean | undefined;
}

/**
 * How many recent watch events and write resourceVersions a key remembers. An enqueue follows its
 * watch event within a few lines, and a write's echo within a few passes; keeping more only
 * turns short-lived records into long-lived garbage.
 */
export const RECENT = 16;

export class KeyState {
  readonly summary: KeySummary;
  /** The key's passes, oldest first, as rows of the Analyzer's PassTable. */
  readonly rows: number[] = [];
  /** The row of the open pass, or -1. */
  open = -1;
  /** The seq of the event that opened the latest pass (its dequeue, or its first marker). */
  openSeq = 0;
  /**
   * The passes as objects, as `Analyzer.passes` last handed them out; from index `stale` on they
   * may be out of date (or missing).
   */
  readonly view: Pass[] = [];
  stale = 0;
  /**
   * Triggers since the latest pass began (they belong to the next pass, which takes the list
   * over): first and last row of their list in the Analyzer's TriggerTable (-1: none), and how
   * many.
   */
  pendingFirst = -1;
  pendingLast = -1;
  pendingCount = 0;
  pendingNonResync = false;
  /**
   * A pass ended in error and its rate-limited re-add has not come yet: the key is not quiet,
   * whatever passes run meanwhile (client-go's delayed add fires even if a later pass succeeds).
   */
  retryOwed = false;
  /** The latest watch event not yet claimed by an enqueue. */
  lastWatch: WatchClass | undefined;
  /** Ring of the key's latest watch classifications. */
  private readonly recentWatches: (WatchClass | undefined)[] = new Array(RECENT);
  private watchAt = 0;
  /** resourceVersions our writes returned → the writes' seqs: a ring of the Analyzer's RvRings. */
  readonly ownRvs: number;
  /**
   * resourceVersions of watch events no write of ours had returned when they came → their seqs.
   * A watch event can overtake the log line of the write it echoes (the API server sends the
   * event before the write's response arrives): that write, when it comes, claims its echo here.
   * A ring of the Analyzer's RvRings.
   */
  readonly unexplainedRvs: number;
  /** Writes that may still be echoed by a watch event (heuristic matching), oldest first. */
  echoes: OpenWrite[] = [];
  /** Writes whose change is not known yet, by seq. */
  readonly unsettled = new Map<number, OpenWrite>();
  lastOutcome: PassOutcome | undefined;
  /** Last resourceVersion seen for the key's Foo and its Deployment. */
  fooRv: string | undefined;
  deployRv: string | undefined;
  writesWithRv = 0;
  /** Whether this key's Foo / Deployment watch events carry resourceVersions (exact matching). */
  fooWatchRv = false;
  deployWatchRv = false;
  /** Whether this key's enqueues say why they happened (cause), as our probe's do. */
  causesLogged = false;
  /** Index of the first pass that follows the key's first watch event; undefined before it. */
  createFrom: number | undefined;
  /** Whether a watch event said the key's Foo was added (a second add begins a new life). */
  fooAdded = false;
  /** Index of the first pass of the Foo's current life (see Analyzer.newLife). */
  lifeStart = 0;
  /** Pass index where the key went quiet and nothing but resyncs followed (yet). */
  candidate = -1;
  createConfirmed = false;
  /** Fields changed on every pass of the current hot-loop run (undefined: not known). */
  runFields: string[] | undefined;

  constructor(
    /** The key's number, in order of first appearance. */
    readonly id: number,
    key: string,
    ts: number,
    rings: RvRings,
  ) {
    this.ownRvs = rings.add();
    this.unexplainedRvs = rings.add();
    this.summary = {
      key,
      firstTs: ts,
      // Literals (in the order of STAGES and PASS_CAUSES): a key costs two small objects here,
      // not the arrays of entries Object.fromEntries would build them from.
      byStage: { watch: 0, enqueue: 0, dequeue: 0, read: 0, write: 0 },
      passes: 0,
      passCauses: { external: 0, self: 0, resync: 0, retry: 0, unknown: 0 },
      selfTriggered: 0,
      writes: 0,
      changingWrites: 0,
      noopWrites: 0,
      conflicts: 0,
      reconcilesForCreate: null,
      quiescent: false,
      hotLoop: false,
    };
  }

  /**
   * The record for the next watch event's classification. The ring's records are reused (they
   * are copied into a trigger's row when an enqueue claims them), so a busy key allocates nothing
   * here.
   */
  nextWatchSlot(): WatchClass {
    let w = this.recentWatches[this.watchAt];
    if (w === undefined) {
      w = { seq: 0, cause: "unknown", inferred: false, writeSeq: undefined };
      this.recentWatches[this.watchAt] = w;
    }
    this.watchAt = (this.watchAt + 1) % RECENT;
    return w;
  }

  /** The classification of a recent watch event of this key, by seq. */
  watchBySeq(seq: number): WatchClass | undefined {
    for (const w of this.recentWatches) if (w !== undefined && w.seq === seq) return w;
    return undefined;
  }
}
