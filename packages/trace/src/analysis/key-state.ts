/**
 * Everything the Analyzer remembers about one key. Bounded per key except its list of passes (one
 * per pass, which the views need) — the maps of recent resourceVersions and watches are capped.
 */
import { none } from "./short-list.ts";
import type { PassOutcome } from "../event.ts";
import type { KeySummary, Pass, PassCause } from "./model.ts";
import type { PassTable } from "./pass-table.ts";
import type { RvRings } from "./rv-ring.ts";
import { WATCH_SLOTS, type WatchTable } from "./watch-table.ts";

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
 * How many recent write resourceVersions a key remembers (and watch events: see WATCH_SLOTS). An
 * enqueue follows its watch event within a few lines, and a write's echo within a few passes.
 */
export const RECENT = 16;

/**
 * A key's state is read at the first event of each of its passes, long after its last pass: each
 * cache line it spans is a miss, so it is one object where it can be. Fields touched by most
 * passes come first and together (V8 lays a class's fields out in the order they are assigned);
 * the summary's counts are fields here, not objects of their own; lists a key seldom needs start
 * as one shared empty value.
 */
export class KeyState {
  /** The row of the open pass, or -1. */
  open = -1;
  /** The seq of the event that opened the latest pass (its dequeue, or its first marker). */
  openSeq = 0;
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
  /** The WatchTable slot of the latest watch event not yet claimed by an enqueue, or -1. */
  lastWatch = -1;
  /** The index in the key's watch ring that the next watch event takes. */
  private watchAt = 0;
  /** Events of each stage in the current life (KeySummary.byStage; a write event is a write). */
  watches = 0;
  enqueues = 0;
  dequeues = 0;
  reads = 0;
  /** The current life's passes, and by cause (KeySummary.passCauses). */
  passes = 0;
  externalPasses = 0;
  selfPasses = 0;
  resyncPasses = 0;
  retryPasses = 0;
  unknownPasses = 0;
  /** The current life's writes (KeySummary's counts of the same names). */
  writes = 0;
  changingWrites = 0;
  noopWrites = 0;
  conflicts = 0;
  hotLoop = false;
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
  /**
   * The kinds watch events said were added under this key: a second add of the primary kind (the
   * key's own object, see Analyzer.primaryKinds) begins a new life. Kept for every kind, since a
   * kind may turn out to be primary after its first add.
   */
  addedKinds: string[] = none<string>();
  /**
   * Whether the key's Foo was seen gone in this life: its delete, the lister's not-found, the
   * controller's "no longer exists". An add the reader only assumed (a bare `STAGE/watch ns/name`,
   * which a learner who prints it in enqueueFoo prints on update too) begins a new life then, or
   * when it is not the echo of a write of the key (see ASSUMED_ADD_ECHO_US in analyzer.ts).
   */
  fooGone = false;
  /** Whether a watch event said the key's own object was deleted, in this life (KeySummary.deleted). */
  fooDeleted = false;
  /**
   * The pass row that already said the Foo was gone (-1: none): the lister's not-found and the
   * controller's "no longer exists" of one pass are one finding, not two.
   */
  goneSaidIn = -1;
  /**
   * The key's latest write when its line said no answer (no code, no reason, no changed=): a
   * learner prints STAGE/write before or without the call's result. If its pass then ends in a
   * 409, the API refused it (see refusedWrite); it changed nothing, and was no no-op either.
   */
  lastBareWrite: OpenWrite | undefined;
  /** µs of the key's latest successful write (its Foo's status, its Deployment); -Infinity: none. */
  writeTs = -Infinity;
  /** seq of the key's latest successful status write with a resourceVersion; -1: none. */
  statusWriteSeq = -1;
  /** Index of the first pass that follows the key's first watch event; undefined before it. */
  createFrom: number | undefined;
  /** The life began with an add of the informer's initial list: no creation (see KeySummary). */
  listed = false;
  /** Pass index where the key went quiet and nothing but resyncs followed (yet). */
  candidate = -1;
  createConfirmed = false;
  /** resourceVersions our writes returned → the writes' seqs: a ring of the Analyzer's RvRings. */
  readonly ownRvs: number;
  /**
   * resourceVersions of watch events no write of ours had returned when they came → their seqs.
   * A watch event can overtake the log line of the write it echoes (the API server sends the
   * event before the write's response arrives): that write, when it comes, claims its echo here.
   * A ring of the Analyzer's RvRings.
   */
  readonly unexplainedRvs: number;
  /** How many passes the key has had (all its lives), and the row of the latest (-1: none). */
  rowCount = 0;
  lastRow = -1;
  /**
   * Writes that may still be echoed by a watch event (heuristic matching), oldest first. Shared
   * and empty until the key has one (see addEcho): keep it to reading, emptying and removing.
   */
  echoes: OpenWrite[] = NO_WRITES;
  /**
   * Writes whose change is not known yet, by seq. Shared and empty until the key has one (see
   * addUnsettled): keep it to reading and deleting.
   */
  unsettled: Map<number, OpenWrite> = NO_UNSETTLED;
  /**
   * The passes as objects, as `Analyzer.passes` last handed them out; from index `stale` on they
   * may be out of date (or missing).
   */
  readonly view: Pass[] = [];
  stale = 0;
  /** Index of the first pass of the Foo's current life (see Analyzer.newLife). */
  lifeStart = 0;
  /** seq of the watch event that began the current life; undefined in the key's first. */
  lifeSeq: number | undefined;
  /** Lives of the key's Foo so far: one more each time it was created again (Analyzer.newLife). */
  lives = 1;
  /** Fields changed on every pass of the current hot-loop run (undefined: not known). */
  runFields: string[] | undefined;
  /** The first rows of `rowsIn`, oldest first, as far as it was asked for. */
  private readonly rowList: number[] = [];
  /** The key's ring of its latest watch classifications in the Analyzer's WatchTable. */
  readonly watchRing: number;

  constructor(
    /** The key's number, in order of first appearance. */
    readonly id: number,
    readonly key: string,
    /** µs of the current life's first event. */
    public firstTs: number,
    rings: RvRings,
    watches: WatchTable,
  ) {
    this.ownRvs = rings.add();
    this.unexplainedRvs = rings.add();
    this.watchRing = watches.add();
  }

  /** Counts a pass of `cause` (`by` 1, or -1 to take one back). */
  countCause(cause: PassCause, by: number): void {
    switch (cause) {
      case "external":
        this.externalPasses += by;
        break;
      case "self":
        this.selfPasses += by;
        break;
      case "resync":
        this.resyncPasses += by;
        break;
      case "retry":
        this.retryPasses += by;
        break;
      case "unknown":
        this.unknownPasses += by;
        break;
    }
  }

  /** Starts the counts of a new life (see Analyzer.newLife). */
  resetCounts(ts: number): void {
    this.firstTs = ts;
    this.watches = this.enqueues = this.dequeues = this.reads = 0;
    this.passes = 0;
    this.externalPasses = this.selfPasses = this.resyncPasses = 0;
    this.retryPasses = this.unknownPasses = 0;
    this.writes = this.changingWrites = this.noopWrites = this.conflicts = 0;
    this.hotLoop = false;
  }

  /** The summary's counts, as of now; the Analyzer adds what takes its pass table. */
  summary(reconcilesForCreate: number | null, quiescent: boolean): KeySummary {
    return {
      key: this.key,
      firstTs: this.firstTs,
      byStage: {
        watch: this.watches,
        enqueue: this.enqueues,
        dequeue: this.dequeues,
        read: this.reads,
        write: this.writes,
      },
      passes: this.passes,
      passCauses: {
        external: this.externalPasses,
        self: this.selfPasses,
        resync: this.resyncPasses,
        retry: this.retryPasses,
        unknown: this.unknownPasses,
      },
      // A pass of cause "self" is one whose every trigger was our own write.
      selfTriggered: this.selfPasses,
      writes: this.writes,
      changingWrites: this.changingWrites,
      noopWrites: this.noopWrites,
      conflicts: this.conflicts,
      reconcilesForCreate,
      listed: this.listed,
      quiescent,
      deleted: this.fooDeleted,
      hotLoop: this.hotLoop,
    };
  }

  /** Adds a write that may still be echoed, at the end of `echoes`. */
  addEcho(w: OpenWrite): void {
    if (this.echoes === NO_WRITES) this.echoes = [];
    this.echoes.push(w);
  }

  /** Adds a write whose change is not known yet. */
  addUnsettled(w: OpenWrite): void {
    if (this.unsettled === NO_UNSETTLED) this.unsettled = new Map();
    this.unsettled.set(w.seq, w);
  }

  /**
   * The key's passes, oldest first, as rows of `table` (the Analyzer's PassTable). Built only when
   * asked, from the chain of rows the table keeps: a pass that opens costs the key no array of
   * its own to grow — an array is one more object to miss, on every pass.
   */
  rowsIn(table: PassTable): readonly number[] {
    const list = this.rowList;
    let missing = this.rowCount - list.length;
    if (missing > 0) {
      const from = list.length;
      list.length = this.rowCount;
      for (let row = this.lastRow; missing > 0; row = table.previous(row))
        list[from + --missing] = row;
    }
    return list;
  }

  /** The slot of `watches` (the Analyzer's) for the key's next watch event. */
  nextWatchSlot(watches: WatchTable): number {
    const slot = watches.slot(this.watchRing, this.watchAt);
    this.watchAt = (this.watchAt + 1) % WATCH_SLOTS;
    return slot;
  }
}

/** The `echoes` of every key that has none: never pushed to (see addEcho). */
const NO_WRITES: OpenWrite[] = [];
/** The `unsettled` of every key that has none: never added to (see addUnsettled). */
const NO_UNSETTLED = new Map<number, OpenWrite>();
