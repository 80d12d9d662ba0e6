/**
 * The incremental analysis: push events as they arrive (live) or as a file is read (replay) and
 * ask at any moment for per-key summaries, passes and findings. The rules are docs/stages.md.
 *
 * Invariants:
 * - Each event is looked at once, in `seq` order; the work per event is O(1) apart from rare
 *   bounded scans (a key's last few writes): the cost grows linearly with the trace.
 * - A pass is counted once: it opens at a dequeue — or, in logs without dequeue lines, at the
 *   first read/write of the key or at its pass-end marker (`fromMarkers`) — and closes at the
 *   key's `done` event (or, if the log lost it, at the key's next dequeue).
 * - A pass's triggers are the key's enqueues since its previous pass began; its cause is fixed
 *   when it opens. Everything else on a pass (writes, outcome) may still change until it closes,
 *   and a write whose effect is unknown (no resourceVersion, no `changed`) is settled later:
 *   changing when its echo arrives, no-op when two more passes go by without one.
 * - Summaries are live values: while a stream is running, `reconcilesForCreate` and `quiescent`
 *   describe the trace so far.
 * - It keeps values of an event (strings, numbers, its `fields` list), never the event object:
 *   a caller may refill one object for every event it pushes (the web app's analysis worker does).
 */
import { errorInBrief } from "./error-in-brief.ts";
import type {
  DequeueEvent,
  EnqueueEvent,
  PassEndEvent,
  ReadEvent,
  TraceEvent,
  WatchEvent,
  WriteEvent,
} from "../event.ts";
import { eventAssumed, kindAssumed, STAGES } from "../event.ts";
import { detach } from "../detach.ts";
import type {
  AnalysisSnapshot,
  Finding,
  FindingKind,
  KeySummary,
  Pass,
  PassCause,
  StageCounts,
} from "./model.ts";
import { KeyState, RECENT, type OpenWrite } from "./key-state.ts";
import { PassTable } from "./pass-table.ts";
import { RvRings } from "./rv-ring.ts";
import { WatchTable } from "./watch-table.ts";
import { append, none } from "./short-list.ts";
import { TriggerTable } from "./trigger-table.ts";
import { otherControllerIn } from "./other-controller.ts";
import { statusInError } from "./error-status.ts";
import { listInBrief } from "../list-in-brief.ts";

/** Consecutive self-triggered changing passes that make a hot loop, unless told otherwise. */
export const HOT_LOOP_THRESHOLD = 5;

export interface AnalyzerOptions {
  /** Consecutive self-triggered changing passes that make a hot loop (default HOT_LOOP_THRESHOLD). */
  hotLoopThreshold?: number;
  /**
   * Without resourceVersions, how long after one of our writes a watch event (or an enqueue
   * with no watch line) may be taken for its echo (default 1 s: echoes take milliseconds; a
   * Deployment's pods become ready, another writer's change, seconds later).
   */
  echoWindowMs?: number;
  /** Keep a log of changed passes for `takeChangedPasses` (a consumer that mirrors the passes). */
  trackChanges?: boolean;
}

export class Analyzer {
  private readonly states = new Map<string, KeyState>();
  /** The same, by id. */
  private readonly byId: KeyState[] = [];
  /** Every key's triggers: those its next pass will take, and those its passes took. */
  private readonly triggers = new TriggerTable();
  private readonly table = new PassTable(this.triggers);
  /** Every key's rings of recent resourceVersions (see KeyState.ownRvs, unexplainedRvs). */
  private readonly rvs = new RvRings(RECENT);
  /** Every key's latest watch classifications (see KeyState.watchRing, lastWatch). */
  private readonly watches = new WatchTable();
  /** Findings in order of first occurrence, and the same by kind and key. */
  private readonly findingList: FindingRecord[] = [];
  private readonly findingIndex = new Map<FindingKind, Map<string, FindingRecord>>();
  private readonly threshold: number;
  private readonly echoWindowUs: number;
  /**
   * The kinds of the keys' own objects (the primary kinds): Foo, as sample-controller's, and
   * the kinds a status write's echo shows — the controller writes the status of its own objects
   * (as `loopscope proxy` learns them; its traces may be of any kind). A second add of a primary
   * kind begins a new life, and another writer's change to one ends a create (see watch).
   */
  private readonly primaryKinds = new Set<string>(["Foo"]);
  /** Whether the trace has watch lines of Foos, of Deployments (see unwatchedKind). */
  private fooWatched = false;
  private deploymentWatched = false;
  /**
   * Whether the trace's watch lines that do not say their event come on every event, not only on
   * adds: one came as the echo of a write (a learner who prints STAGE/watch in enqueueFoo). From
   * then on, such a line of a Foo not seen gone is an update, however long after a write.
   */
  private bareWatchEveryEvent = false;
  private eventCount = 0;
  private readonly totals: StageCounts = Object.fromEntries(
    STAGES.map((s) => [s, 0]),
  ) as StageCounts;
  private orphans = 0;
  private lastKey: string | undefined;
  private lastState: KeyState | undefined;
  /**
   * Rows of the passes opened or changed since the last `takeChangedPasses` (with
   * `trackChanges`), each once: a row is listed when its `changedIn` slot does not hold the
   * current `changeEpoch` — a read of the row instead of hashing the pass into a Set.
   */
  private changed: number[] | undefined;
  private changeEpoch = 1;

  constructor(opts: AnalyzerOptions = {}) {
    this.threshold = Math.max(1, opts.hotLoopThreshold ?? HOT_LOOP_THRESHOLD);
    this.echoWindowUs = (opts.echoWindowMs ?? 1000) * 1000;
    if (opts.trackChanges) this.changed = [];
  }

  /**
   * Takes the next event. Returns the index of the pass the event belongs to within its key
   * (see `passes(key)`), or -1 for events outside any pass (triggers, notes, orphans).
   */
  push(e: TraceEvent): number {
    this.eventCount++;
    switch (e.stage) {
      case "watch":
        return this.watch(e);
      case "enqueue":
        return this.enqueue(e);
      case "dequeue":
        return this.dequeue(e);
      case "read":
        return this.read(e);
      case "write":
        return this.write(e);
      case "done":
        return this.done(e);
      case "note": {
        const other = otherControllerIn(e.text);
        if (other !== undefined) {
          // One finding per other controller: every pass it causes looks external, whichever
          // Foo its Event was about.
          this.find("other-controller", e.key, e.seq, e.text, other);
        } else if (e.key && e.text.includes("no longer exists")) {
          const st = this.states.get(e.key);
          if (st !== undefined) st.fooGone = true;
          if (st === undefined || st.open < 0 || st.goneSaidIn !== st.open) {
            if (st !== undefined) st.goneSaidIn = st.open;
            this.find("not-found", e.key, e.seq, "the Foo was gone when its key was processed");
          }
        } else if (e.key && (e.level === "E" || e.level === "F")) {
          // An error the reconcile logged and returned from without requeuing (sample-controller
          // does so for a Foo it cannot act on): no retry finding will tell of it.
          this.find(
            "error",
            e.key,
            e.seq,
            `the controller logged: ${errorInBrief(e.text)}${hintFor(e.text)}`,
          );
        }
        return -1;
      }
    }
  }

  /**
   * The passes opened or changed since the last call, in the order they first changed —
   * everything a mirror of `passes()` needs to stay equal to it. Needs the `trackChanges` option.
   */
  takeChangedPasses(): Pass[] {
    if (this.changed === undefined)
      throw new Error("Analyzer: takeChangedPasses needs trackChanges");
    const out = this.changed.map((row) => this.table.pass(row, this.keyOf(row)));
    this.changed = [];
    this.changeEpoch++;
    return out;
  }

  /** Consecutive self-triggered changing passes that make a hot loop (see Pass.loopRun). */
  get hotLoopThreshold(): number {
    return this.threshold;
  }

  /** Pushes many events. */
  pushAll(events: Iterable<TraceEvent>): void {
    for (const e of events) this.push(e);
  }

  /** Events by stage so far (a copy). */
  byStage(): StageCounts {
    return { ...this.totals };
  }

  /** Keys in order of first appearance. */
  keys(): string[] {
    return [...this.states.keys()];
  }

  summary(key: string): KeySummary | undefined {
    const st = this.states.get(key);
    return st ? this.summarize(st) : undefined;
  }

  /**
   * The key's passes, oldest first, as of this call. The same array and objects each call, brought
   * up to date: do not modify them.
   */
  passes(key: string): readonly Pass[] {
    const st = this.states.get(key);
    if (st === undefined) return none<Pass>();
    const view = st.view;
    const rows = st.rowsIn(this.table);
    const k = st.key;
    for (let i = st.stale; i < rows.length; i++) {
      if (i < view.length) this.table.fill(rows[i], k, view[i]);
      else view.push(this.table.pass(rows[i], k));
    }
    st.stale = rows.length;
    return view;
  }

  /** How many passes the key has (without building them: see `passes`). */
  passCount(key: string): number {
    return this.states.get(key)?.rowCount ?? 0;
  }

  /**
   * How many lives the key's Foo has had so far: 1 from its first stage event, one more each time
   * it was created again under its name (see newLife); 0 for a key with none.
   */
  lives(key: string): number {
    return this.states.get(key)?.lives ?? 0;
  }

  /**
   * seq of the watch event that began the key's latest life (its Foo created again, see newLife);
   * undefined while it has had only one.
   */
  lifeStartSeq(key: string): number | undefined {
    return this.states.get(key)?.lifeSeq;
  }

  /** End (µs) of the key's pass `index`; undefined while it is open or if there is none. */
  passEnd(key: string, index: number): number | undefined {
    const st = this.states.get(key);
    const row = st?.rowsIn(this.table)[index];
    return row === undefined ? undefined : this.table.end(row);
  }

  private keyOf(row: number): string {
    return this.byId[this.table.keyId(row)].key;
  }

  findings(): Finding[] {
    // Counted over every life of the Foo, where its summary counts the latest: a count that
    // spans lives says so (the objects table's 409 column said 7 beside a finding's ×8).
    return this.findingList.map(({ finding: f, count, firstLife, lastLife }) => {
      const lives = lastLife - firstLife + 1;
      return f.kind === "hot-loop" || count === 1
        ? { ...f, count, lives }
        : {
            ...f,
            count,
            lives,
            detail: `${f.detail} ×${count}${lives > 1 ? ` over ${lives} lives of the Foo` : ""}`,
          };
    });
  }

  /** Everything at once, as plain data (safe to serialize or post to another thread). */
  snapshot(): AnalysisSnapshot {
    // No prototype: a key is data, whatever it is called.
    const keys: Record<string, KeySummary> = Object.create(null) as Record<string, KeySummary>;
    for (const [k, st] of this.states) keys[k] = this.summarize(st);
    return {
      events: this.eventCount,
      byStage: { ...this.totals },
      keys,
      findings: this.findings(),
    };
  }

  // ── stages ────────────────────────────────────────────────────────────────────────────────

  private state(key: string, ts: number): KeyState {
    // A pass's events come one after another: most lookups are for the key just looked up.
    if (key === this.lastKey && this.lastState) return this.lastState;
    let st = this.states.get(key);
    if (!st) {
      st = new KeyState(this.byId.length, detach(key), ts, this.rvs, this.watches);
      this.states.set(st.key, st);
      this.byId.push(st);
    }
    // The key as it came, not the state's copy: where a reader shares one string per key (the
    // page's analysis worker: RowDecoder's key table) it compares without reading its characters. (A slice may keep one
    // decoded chunk of the log alive: one, not one per key.)
    this.lastKey = key;
    this.lastState = st;
    return st;
  }

  private watch(e: WatchEvent): number {
    this.totals.watch++;
    if (e.key === "") {
      this.orphans++;
      // A Deployment deleted after its Foo is the garbage collector at work (`kubectl delete foo`),
      // not a finding; one that is added or changed while no Foo owns it is. An add of the
      // Deployment informer's initial list is not either: the two informers list side by side,
      // so its Foo may not be in the lister yet — and that Foo's own add queues it anyway.
      if (e.event !== "delete" && !e.initial) {
        this.find(
          "orphan",
          "",
          e.seq,
          `watch events for objects whose owner is no Foo the controller knows (${e.kind} ${e.ns ? e.ns + "/" : ""}${e.name})`,
        );
      }
      return -1;
    }
    const st = this.state(e.key, e.ts);
    if (e.kind === "Foo") this.fooWatched = true;
    else if (e.kind === "Deployment") this.deploymentWatched = true;
    const primary = this.primaryKinds.has(e.kind);
    let added = false;
    if (e.event === "add") {
      added = st.addedKinds.includes(e.kind);
      if (!added) st.addedKinds = append(st.addedKinds, detach(e.kind));
    }
    // An "add" of the key's own object with the resourceVersion it already had is the informer
    // listing it again — the controller restarted, or its watch expired — not a new object.
    const relist = primary && added && e.rv !== undefined && e.rv === st.fooRv;
    // An informer says "add" once per object: another one for the key is a new object of that name.
    // Passes that open after the event that begins a life are the ones its creation caused — or,
    // an add of the informer's initial list, its listing: it existed before the trace began. An
    // add the line did not say may be an update (see KeyState.fooGone): within ASSUMED_ADD_ECHO_US
    // of our write, it is taken for that write's echo, unless the Foo was seen gone — and once
    // one was, the log prints the line on every event (bareWatchEveryEvent).
    const echoSoon = e.ts - st.writeTs <= ASSUMED_ADD_ECHO_US;
    const update =
      added && !st.fooGone && eventAssumed(e) && (echoSoon || this.bareWatchEveryEvent);
    if (update && echoSoon) this.bareWatchEveryEvent = true;
    // So is an add once the Foo was seen gone, though it is the trace's first (the trace began on
    // the old Foo's last passes, as a scenario's window does).
    const fresh = added || (e.event === "add" && st.fooGone);
    if (primary && fresh && !relist && !update) {
      this.newLife(st, e.ts);
      st.lifeSeq = e.seq;
      st.listed = e.initial === true;
    }
    if (primary && e.event === "delete") st.fooGone = st.fooDeleted = true;
    st.watches++;
    if (st.createFrom === undefined) {
      st.createFrom = st.rowCount;
      st.listed = e.initial === true;
    }
    const cls = this.classifyWatch(st, e, st.nextWatchSlot(this.watches), relist);
    st.lastWatch = cls;
    const cause = this.watches.cause(cls);
    if (e.rv !== undefined) {
      if (primary) {
        st.fooRv = e.rv;
        st.fooWatchRv = true;
      } else if (e.kind === "Deployment") {
        st.deployRv = e.rv;
        st.deployWatchRv = true;
      }
    }
    // Someone acting on the Foo itself, or deleting what it controls, starts something new: the
    // create was over. (A Deployment's add or update from another writer is most often its
    // rollout — the create still settling.)
    const newAction =
      cause === "external" && !this.watches.inferred(cls) && (primary || e.event === "delete");
    this.noteTrigger(st, cause, newAction);
    return -1;
  }

  /**
   * Classifies `e` into `slot` of the WatchTable (see KeyState.nextWatchSlot) and returns it.
   * `relist`: the informer delivered an object it already had, unchanged — as a resync does.
   */
  private classifyWatch(st: KeyState, e: WatchEvent, slot: number, relist: boolean): number {
    const watches = this.watches;
    if (relist || (e.event === "update" && e.rv !== undefined && e.oldRv === e.rv)) {
      return watches.set(slot, e.seq, "resync", false, undefined);
    }
    if (e.rv !== undefined) {
      const writeSeq = this.rvs.find(st.ownRvs, e.rv);
      if (writeSeq !== undefined) {
        // The echo of a status write is the key's own object: its kind is primary.
        if (writeSeq === st.statusWriteSeq && !this.primaryKinds.has(e.kind)) {
          this.primaryKinds.add(detach(e.kind));
        }
        this.settleEcho(st, writeSeq);
        return watches.set(slot, e.seq, "self", false, writeSeq);
      }
      // Exact only when this key's writes carry resourceVersions to compare with.
      if (st.writesWithRv > 0 || st.writes === 0) {
        // Unless a write of ours logged later returns this rv (see KeyState.unexplainedRvs).
        this.rvs.remember(st.unexplainedRvs, e.rv, e.seq);
        return watches.set(slot, e.seq, "external", false, undefined);
      }
    }
    // Heuristic: a Deployment add/update or a Foo update right after our own write of it.
    if (e.event !== "delete") {
      const w = this.claimEcho(st, e.ts, kindAssumed(e) ? ANY_KIND : e.kind);
      if (w) return watches.set(slot, e.seq, "self", true, w.seq);
    }
    return watches.set(slot, e.seq, "external", true, undefined);
  }

  private enqueue(e: EnqueueEvent): number {
    this.totals.enqueue++;
    const st = this.state(e.key, e.ts);
    st.enqueues++;
    if (e.cause !== undefined) st.causesLogged = true;
    // The trigger, as values: it becomes a row of the trigger table, not an object.
    let watchSeq: number | undefined;
    let writeSeq: number | undefined;
    let cause: PassCause;
    let inferred = false;
    if (e.cause === "resync" || e.cause === "retry") {
      watchSeq = e.causeSeq;
      cause = e.cause;
      if (
        st.lastWatch >= 0 &&
        (e.causeSeq === undefined || this.watches.seq(st.lastWatch) === e.causeSeq)
      )
        st.lastWatch = -1;
    } else {
      const watches = this.watches;
      const w =
        e.causeSeq !== undefined
          ? watches.find(st.watchRing, e.causeSeq)
          : e.cause === undefined || e.cause === "watch"
            ? st.lastWatch
            : -1;
      if (w >= 0) {
        watchSeq = watches.seq(w);
        writeSeq = watches.writeSeq(w);
        cause = watches.cause(w);
        inferred = watches.inferred(w);
        if (st.lastWatch === w) st.lastWatch = -1;
      } else {
        // No watch line to go by: an add right after our own write is taken as its echo.
        const kind = this.unwatchedKind();
        const echo =
          this.claimEcho(st, e.ts, kind) ??
          (kind === ANY_KIND ? undefined : this.claimEcho(st, e.ts, ANY_KIND));
        if (echo) {
          writeSeq = echo.seq;
          cause = "self";
          inferred = true;
        } else {
          cause = "unknown";
        }
      }
    }
    const t = this.triggers.add(e.seq, watchSeq, writeSeq, cause, inferred);
    const open = st.open;
    const table = this.table;
    if (
      open >= 0 &&
      table.triggerCount(open) === 0 &&
      table.cause(open) === "unknown" &&
      table.writeCount(open) === 0 &&
      !table.fromMarkers(open) &&
      e.merged === undefined
    ) {
      this.adoptLateTrigger(st, open, t, cause, inferred);
    } else {
      // At the end of the key's pending list.
      if (st.pendingCount++ === 0) st.pendingFirst = t;
      else this.triggers.link(st.pendingLast, t);
      st.pendingLast = t;
      // `loopscope proxy` infers an enqueue from every watch event, the delete of the key's own
      // object too (controller-runtime does enqueue it), but the pass that follows finds the
      // object gone in the controller's cache and never reaches the wire: none will show. Nor
      // will one for what was pending before, now about a gone object. Nothing is owed.
      if (e.inferred === true && st.fooGone) st.pendingNonResync = false;
      else if (cause !== "resync") st.pendingNonResync = true;
    }
    if (cause === "retry") st.retryOwed = false;
    this.noteTrigger(st, cause);
    return -1;
  }

  /**
   * The enqueue line of the open pass, printed after its dequeue line. A log line that follows
   * `workqueue.Add` (as sample-controller's patch prints it) races the worker that `Get`s the key
   * at once: the worker's dequeue line can come first. A pass that began with no enqueue of its
   * key since the last one, and has not written yet, is that race: its first enqueue line is its
   * trigger, not one for the next pass. (After a write, an add may be that write's echo.) Only
   * for logs that do not say whether an add merged (ours say "processing" for an add parked
   * while a worker holds the key). `t` is the trigger's row (in no list yet) and `cause`,
   * `inferred` its values.
   */
  private adoptLateTrigger(
    st: KeyState,
    p: number,
    t: number,
    cause: PassCause,
    inferred: boolean,
  ): void {
    this.touch(st, p);
    this.table.setTriggers(p, t, 1, cause, inferred);
    st.countCause("unknown", -1);
    st.countCause(cause, 1);
  }

  private dequeue(e: DequeueEvent): number {
    this.totals.dequeue++;
    const st = this.state(e.key, e.ts);
    st.dequeues++;
    if (st.open >= 0) this.close(st, st.open, undefined);
    this.openPass(st, e.ts, e.seq, e);
    return st.rowCount - 1;
  }

  private read(e: ReadEvent): number {
    this.totals.read++;
    const st = this.state(e.key, e.ts);
    st.reads++;
    const p = st.open >= 0 ? st.open : this.openPass(st, e.ts, e.seq, undefined);
    this.touch(st, p);
    this.table.noteRead(p, e.seq);
    if (e.rv !== undefined) st.fooRv = e.rv;
    if (e.worker !== undefined) this.table.noteWorker(p, e.worker);
    if (e.found === false) {
      st.fooGone = true;
      if (st.goneSaidIn !== p)
        this.find("not-found", e.key, e.seq, "the lister did not find the Foo");
      st.goneSaidIn = p;
    }
    return this.table.index(p);
  }

  private write(e: WriteEvent): number {
    this.totals.write++;
    const st = this.state(e.key, e.ts);
    st.writes++;
    const table = this.table;
    const p = st.open >= 0 ? st.open : this.openPass(st, e.ts, e.seq, undefined);
    this.touch(st, p);
    table.addWrite(p, e.seq);
    const code = e.code ?? codeOfReason(e.reason);
    if (code === 409) {
      st.conflicts++;
      table.addConflict(p);
      this.find(
        "conflict",
        e.key,
        e.seq,
        `write answered 409 ${e.reason ?? "Conflict"} (${e.verb} ${e.target})`,
      );
    }
    const failed = code !== undefined ? code >= 400 : e.reason !== undefined && e.reason !== "";
    if (failed) return table.index(p);
    const echoKind = echoKindOf(e);
    if (echoKind !== undefined) st.writeTs = e.ts;
    let changed: boolean | undefined = e.changed;
    if (changed === undefined && e.fields && e.fields.length > 0) changed = true;
    if (changed === undefined && e.verb === "create") changed = true;
    // A watch event that came before this line with the rv this write returned is its echo —
    // if it came while this pass ran. One from before the pass shows the object as the write
    // found it: a no-op write returns the rv the object already had.
    // (A write the log calls a no-op returned the rv someone else's change gave the object.)
    const earlyEcho =
      e.rv !== undefined && e.changed !== false
        ? this.rvs.take(st.unexplainedRvs, e.rv, st.openSeq)
        : undefined;
    if (earlyEcho !== undefined) {
      this.echoCameFirst(st, earlyEcho, e.seq);
      changed ??= true;
    }
    if (changed === undefined && e.rv !== undefined) {
      const before =
        echoKind === "Foo" ? st.fooRv : echoKind === "Deployment" ? st.deployRv : undefined;
      if (before !== undefined) changed = e.rv !== before;
    }
    if (e.rv !== undefined) {
      st.writesWithRv++;
      if (e.verb === "updateStatus" || e.target.endsWith("/status")) st.statusWriteSeq = e.seq;
      this.rvs.remember(st.ownRvs, e.rv, e.seq);
      if (echoKind === "Foo") st.fooRv = e.rv;
      else if (echoKind === "Deployment") st.deployRv = e.rv;
    }
    let w: OpenWrite | undefined;
    if (changed === true) this.markChanging(st, p, e.seq, e.fields);
    else {
      // Unsettled writes count as no-ops until an echo shows they changed something.
      st.noopWrites++;
      table.addNoopWrites(p, 1);
      if (changed === undefined) {
        w = { seq: e.seq, ts: e.ts, pass: p, echoKind, changed };
        st.addUnsettled(w);
      }
    }
    st.lastBareWrite = e.code === undefined && e.changed === undefined ? w : undefined;
    // Kept for echo matching unless resourceVersions will settle it exactly: it has one, its
    // effect is known, and this key's watch events of that kind carry theirs.
    const exact =
      e.rv !== undefined &&
      changed !== undefined &&
      (echoKind === "Foo" ? st.fooWatchRv : st.deployWatchRv);
    if (changed !== false && echoKind !== undefined && !exact && earlyEcho === undefined) {
      st.addEcho(w ?? { seq: e.seq, ts: e.ts, pass: p, echoKind, changed });
    }
    return table.index(p);
  }

  private done(e: PassEndEvent): number {
    const st = this.state(e.key, e.ts);
    const p = st.open >= 0 ? st.open : this.openPass(st, e.ts, e.seq, undefined);
    this.table.setEnd(p, e.ts, e.seq);
    if (e.worker !== undefined) this.table.noteWorker(p, e.worker);
    // A log without write lines (the unpatched Go controller's) shows a 409 only in the error
    // the pass ended with; one whose write line already counted it is not counted twice.
    if (e.error !== undefined && this.table.conflicts(p) === 0 && statusInError(e.error) === 409) {
      st.conflicts++;
      this.table.addConflict(p);
      this.find("conflict", e.key, e.seq, `pass ended in a 409: ${errorInBrief(e.error)}`);
      // Its last write, whose line said no answer, is the call the API refused: no no-op.
      const w = st.lastBareWrite;
      if (w !== undefined && w.pass === p && w.changed === undefined) this.refused(st, w);
    }
    this.close(st, p, e.outcome);
    if (e.outcome === "requeued") {
      this.find(
        "retry",
        e.key,
        e.seq,
        `passes ended in error and were requeued${e.error ? ` (last: ${errorInBrief(e.error)})` : ""}`,
      );
    }
    return this.table.index(p);
  }

  /**
   * The key's Foo was created again (the exercise's own `kubectl delete …; kubectl apply …`; the
   * controller does not watch Foo deletions, so the second add is what tells): a new life begins. The summary counts from here — stages, passes, writes,
   * the reconciles of this create, whether it loops — and the old life's passes stay listed but
   * no longer count; its writes can no longer be echoed (their object is gone).
   */
  private newLife(st: KeyState, ts: number): void {
    st.lives++;
    st.resetCounts(ts);
    for (const w of st.unsettled.values()) this.settleNoop(st, w);
    st.echoes.length = 0; // (a key with none shares one empty list: emptying it changes nothing)
    st.lifeStart = st.rowCount;
    st.createFrom = st.lifeStart;
    st.candidate = -1;
    st.createConfirmed = false;
    st.runFields = undefined;
    // What was known of the old objects says nothing about the new ones.
    st.lastOutcome = undefined;
    st.fooRv = st.deployRv = undefined;
    st.fooWatchRv = st.deployWatchRv = false;
    st.writesWithRv = 0;
    st.fooGone = st.fooDeleted = false;
    st.writeTs = -Infinity;
    st.lastBareWrite = undefined;
  }

  // ── passes ────────────────────────────────────────────────────────────────────────────────

  /** Opens the key's next pass, at `dequeue` or (undefined) at a pass-end marker; its row. */
  private openPass(
    st: KeyState,
    ts: number,
    seq: number,
    dequeue: DequeueEvent | undefined,
  ): number {
    const triggers = this.triggers;
    let cause: PassCause;
    let inferred = false;
    // Only for traces that do not say why keys were added (the Go controller's logs): ours log the
    // rate-limited re-add, which may come after this pass began (its delay still running).
    let anyRetry = false;
    let anyInferred = false;
    // The first trigger whose cause is not "self" (its row), or -1.
    let firstOther = -1;
    for (let t = st.pendingFirst; t >= 0; t = triggers.next(t)) {
      const c = triggers.cause(t);
      if (c === "retry") anyRetry = true;
      if (triggers.inferred(t)) anyInferred = true;
      if (firstOther < 0 && c !== "self") firstOther = t;
    }
    const retry = !st.causesLogged && st.lastOutcome === "requeued" && !anyRetry;
    if (retry || anyRetry || !st.causesLogged) st.retryOwed = false;
    if (retry) {
      // The rate-limited re-add after an error is not logged by the Go controller: it is the
      // first add of this pass all the same.
      cause = "retry";
      inferred = true;
    } else if (st.pendingCount === 0) {
      cause = "unknown";
    } else if (firstOther >= 0) {
      cause = triggers.cause(firstOther);
      inferred = triggers.inferred(firstOther);
    } else {
      cause = "self";
      inferred = anyInferred;
    }
    const index = st.rowCount;
    const row = this.table.add(
      st.id,
      index,
      index - st.lifeStart + 1,
      ts,
      st.pendingFirst,
      st.pendingCount,
      cause,
      inferred,
      dequeue?.seq,
      dequeue?.worker,
      st.lastRow,
    );
    st.lastRow = row;
    st.rowCount++;
    this.touch(st, row);
    st.open = row;
    st.openSeq = seq;
    st.pendingFirst = st.pendingLast = -1;
    st.pendingCount = 0;
    st.pendingNonResync = false;
    st.passes++;
    st.countCause(cause, 1);
    return row;
  }

  private close(st: KeyState, p: number, outcome: PassEndEvent["outcome"] | undefined): void {
    const table = this.table;
    this.touch(st, p);
    st.open = -1;
    if (outcome !== undefined) table.setOutcome(p, outcome);
    table.endAtStartIfOpen(p);
    st.lastOutcome = outcome;
    // The re-add is owed unless its enqueue line came already (a log may print it at the call).
    if (outcome === "requeued") {
      st.retryOwed = true;
      for (let t = st.pendingCount > 0 ? st.pendingFirst : -1; t >= 0; t = this.triggers.next(t))
        if (this.triggers.cause(t) === "retry") st.retryOwed = false;
    }
    const index = table.index(p);
    // Writes two passes old that no echo claimed changed nothing.
    const echoes = st.echoes;
    if (echoes.length > 0) {
      let kept = 0;
      for (let i = 0; i < echoes.length; i++) {
        const w = echoes[i];
        if (table.index(w.pass) <= index - 2) this.settleNoop(st, w);
        else echoes[kept++] = w;
      }
      echoes.length = kept;
    }
    if (st.unsettled.size > 0) {
      for (const w of st.unsettled.values())
        if (table.index(w.pass) <= index - 2) this.settleNoop(st, w);
    }
    if (st.createConfirmed || st.createFrom === undefined || index < st.createFrom) return;
    if (this.isQuiet(p) && !st.pendingNonResync && !st.retryOwed) {
      st.candidate = index;
      if (st.pendingCount > 0) st.createConfirmed = true; // a resync already followed
    } else {
      st.candidate = -1;
    }
  }

  /**
   * Notes that the pass in row `p` (of `st`) opened or changed: its object is out of date in the
   * key's view, and `takeChangedPasses` lists it.
   */
  private touch(st: KeyState, p: number): void {
    const index = this.table.index(p);
    if (index < st.stale) st.stale = index;
    if (this.changed === undefined || this.table.changedIn(p) === this.changeEpoch) return;
    this.table.setChangedIn(p, this.changeEpoch);
    this.changed.push(p);
  }

  /** Over, changed nothing, and no error: "dropped" is an error the shutting-down queue let go. */
  private isQuiet(p: number): boolean {
    const outcome = this.table.outcome(p);
    return (
      this.table.changingWrites(p) === 0 &&
      outcome !== "requeued" &&
      outcome !== "dropped" &&
      this.table.end(p) !== undefined
    );
  }

  /**
   * A trigger arrived: a resync, or a new action on the Foo (see `watch`), confirms that the key
   * had settled after its create; anything else that it had not.
   */
  private noteTrigger(st: KeyState, cause: PassCause, newAction = false): void {
    if (st.createConfirmed || st.candidate < 0) return;
    if (cause === "resync" || newAction) st.createConfirmed = true;
    else st.candidate = -1;
  }

  // ── writes and their echoes ───────────────────────────────────────────────────────────────

  /**
   * The kind whose watch events an add without a watch line is most likely of: the one of Foo and
   * Deployment the trace has no watch lines of, while it has the other's. The exercise puts its
   * STAGE/watch line in the Foo handler only: there, an add with no watch line before it is the
   * Deployment handler's — the echo of the Deployment write, not of the status write, which the
   * Foo's own watch line will claim. ANY_KIND when the trace has both or neither.
   */
  private unwatchedKind(): "Foo" | "Deployment" | typeof ANY_KIND {
    if (this.fooWatched === this.deploymentWatched) return ANY_KIND;
    return this.fooWatched ? "Deployment" : "Foo";
  }

  /**
   * Takes the newest write echoed by a watch event of `kind` (ANY_KIND: whatever its kind) that
   * is recent enough as the one this event echoes. Older such writes had their chance to be
   * echoed first, so they changed nothing; they leave the list with it (in place: the order of
   * the rest is kept).
   */
  private claimEcho(
    st: KeyState,
    ts: number,
    kind: string | typeof ANY_KIND,
  ): OpenWrite | undefined {
    const echoes = st.echoes;
    let i = echoes.length - 1;
    while (i >= 0 && kind !== ANY_KIND && echoes[i].echoKind !== kind) i--;
    if (i < 0) return undefined;
    const w = echoes[i];
    if (ts - w.ts > this.echoWindowUs) return undefined;
    let kept = 0;
    for (let j = 0; j < echoes.length; j++) {
      const x = echoes[j];
      if (j < i && (kind === ANY_KIND || x.echoKind === kind)) this.settleNoop(st, x);
      else if (j !== i) echoes[kept++] = x;
    }
    echoes.length = kept;
    if (w.changed === undefined) this.settleChanging(st, w);
    return w;
  }

  /**
   * The watch event `watchSeq`, taken for an external change when it came, turned out to be the
   * echo of the write `writeSeq` logged after it: it and the trigger it gave (still waiting for
   * the key's next pass — the write's own pass is running) become "self". A pass already opened
   * on it cannot be: that pass ran before the write that caused it.
   */
  private echoCameFirst(st: KeyState, watchSeq: number, writeSeq: number): void {
    const watches = this.watches;
    const w = watches.find(st.watchRing, watchSeq);
    if (w >= 0 && watches.cause(w) === "external") {
      watches.set(w, watchSeq, "self", watches.inferred(w), writeSeq);
    }
    const triggers = this.triggers;
    for (let t = st.pendingFirst; t >= 0; t = triggers.next(t)) {
      if (triggers.watchSeq(t) === watchSeq && triggers.cause(t) === "external") {
        triggers.settleAsEcho(t, writeSeq);
      }
    }
  }

  private settleEcho(st: KeyState, writeSeq: number): void {
    const echoes = st.echoes;
    let i = 0;
    while (i < echoes.length && echoes[i].seq !== writeSeq) i++;
    if (i === echoes.length) return;
    const w = echoes[i];
    echoes.splice(i, 1);
    if (w.changed === undefined) this.settleChanging(st, w);
  }

  private settleChanging(st: KeyState, w: OpenWrite): void {
    w.changed = true;
    st.unsettled.delete(w.seq);
    st.noopWrites--;
    this.table.addNoopWrites(w.pass, -1);
    this.markChanging(st, w.pass, w.seq, undefined);
  }

  /** `w` was refused (a 409 its pass's error told): it changed nothing, and is no no-op. */
  private refused(st: KeyState, w: OpenWrite): void {
    w.changed = false;
    st.unsettled.delete(w.seq);
    st.noopWrites--;
    this.table.addNoopWrites(w.pass, -1);
    const i = st.echoes.indexOf(w);
    if (i >= 0) st.echoes.splice(i, 1);
    st.lastBareWrite = undefined;
  }

  private settleNoop(st: KeyState, w: OpenWrite): void {
    if (w.changed !== undefined) return;
    w.changed = false;
    st.unsettled.delete(w.seq);
  }

  private markChanging(
    st: KeyState,
    p: number,
    writeSeq: number,
    fields: string[] | undefined,
  ): void {
    const table = this.table;
    this.touch(st, p);
    table.addChangingWrite(p, writeSeq);
    st.changingWrites++;
    if (fields) table.addChangedFields(p, fields);
    if (st.candidate === table.index(p) && !st.createConfirmed) st.candidate = -1;
    this.qualifyHotLoop(st, p);
  }

  // ── hot loops ─────────────────────────────────────────────────────────────────────────────

  /**
   * Extends the run of consecutive self-triggered changing passes through `p`. Passes that only
   * stumbled on a conflict (a 409, nothing changed, requeued) do not break a run: with several
   * workers a looping key's next pass often starts before the echo of its own last write reached
   * the lister, and its stale write conflicts with that very write.
   */
  private qualifyHotLoop(st: KeyState, p: number): void {
    const table = this.table;
    if (table.cause(p) !== "self" || table.run(p) > 0) return;
    const rows = st.rowsIn(table);
    const index = table.index(p);
    const before = this.previousCounted(st, index);
    const prev = before >= 0 ? table.run(rows[before]) : 0;
    table.setRun(p, prev + 1);
    st.runFields = intersect(prev > 0 ? st.runFields : undefined, table.changedFields(p));
    // A later pass may have qualified first (its write settled sooner): carry the run on.
    let end = index;
    for (;;) {
      let next = end + 1;
      while (next < rows.length && table.isStumble(rows[next])) next++;
      if (next >= rows.length || table.run(rows[next]) === 0) break;
      this.touch(st, rows[next]);
      table.setRun(rows[next], table.run(rows[end]) + 1);
      end = next;
      st.runFields = intersect(st.runFields, table.changedFields(rows[end]));
    }
    // The run's first pass, for the finding's seq.
    let first = end;
    for (let i = table.run(rows[end]); i > 1; i--) first = this.previousCounted(st, first);
    const length = table.run(rows[end]);
    if (length >= this.threshold) {
      st.hotLoop = true;
      const fields = st.runFields ?? [];
      const what =
        fields.length > 0
          ? `changing ${listInBrief(fields)} every time`
          : "each making a changing write";
      const r = this.find(
        "hot-loop",
        st.key,
        table.dequeueSeq(rows[first]) ?? table.firstWriteSeq(rows[first]),
        "",
      );
      const f = r.finding;
      r.count = length;
      // Passes refused with 409 in between are bridged, not counted: say so, or "consecutive" lies.
      const refused = end - first + 1 - length;
      f.detail =
        refused > 0
          ? `${length} passes triggered by its own writes, ${what}, and ${refused} between them refused with 409 (changing nothing)`
          : `${length} consecutive passes triggered by its own writes, ${what}`;
      if (fields.length > 0) f.fields = fields;
      else delete f.fields;
    }
  }

  /** Index of the nearest pass before `index` that is not a conflict stumble, or -1. */
  private previousCounted(st: KeyState, index: number): number {
    let i = index - 1;
    const rows = st.rowsIn(this.table);
    while (i >= st.lifeStart && this.table.isStumble(rows[i])) i--;
    // A run does not reach back into the Foo's previous life.
    return i >= st.lifeStart ? i : -1;
  }

  // ── findings and summaries ────────────────────────────────────────────────────────────────

  /**
   * Counts one more occurrence of the finding of `kind` about `key` (or, where one key may have
   * several, the one named `id`), whose detail is now `detail` (except for hot loops, whose
   * caller writes it).
   */
  private find(
    kind: FindingKind,
    key: string,
    seq: number | undefined,
    detail: string,
    id = key,
  ): FindingRecord {
    let byKey = this.findingIndex.get(kind);
    if (byKey === undefined) {
      byKey = new Map();
      this.findingIndex.set(kind, byKey);
    }
    let r = byKey.get(id);
    const life = this.states.get(key)?.lives ?? 0;
    if (r === undefined) {
      // Detached, like every string the Analyzer keeps (see detach): `key` and `detail` are
      // often cut from, or built from slices of, a whole decoded chunk of the log.
      const k = detach(key);
      const d = detach(detail);
      r = {
        finding:
          seq !== undefined
            ? { kind, key: k, detail: d, seq, lastSeq: seq }
            : { kind, key: k, detail: d },
        count: 0,
        firstLife: life,
        lastLife: life,
      };
      byKey.set(id === key ? k : detach(id), r);
      this.findingList.push(r);
    } else if (kind !== "hot-loop" && r.finding.detail !== detail) {
      r.finding.detail = detach(detail);
    }
    if (seq !== undefined && r.finding.lastSeq !== undefined) r.finding.lastSeq = seq;
    r.lastLife = life;
    r.count++;
    return r;
  }

  private summarize(st: KeyState): KeySummary {
    const last = st.lastRow;
    const quiescent =
      st.open < 0 && last >= 0 && this.isQuiet(last) && !st.pendingNonResync && !st.retryOwed;
    const reconciles =
      st.candidate >= 0 && st.createFrom !== undefined ? st.candidate - st.createFrom + 1 : null;
    return st.summary(reconciles, quiescent);
  }
}

/**
 * A finding as the Analyzer keeps it: `finding.detail` is the latest detail given, and
 * `findings()` adds the count to it (so a repeated finding costs no new string).
 */
interface FindingRecord {
  readonly finding: Omit<Finding, "count" | "lives">;
  count: number;
  /** The key's life at the first and the latest occurrence (0 for a finding of no key). */
  firstLife: number;
  lastLife: number;
}

/** `claimEcho`'s kind for an enqueue with no watch line: a write of any kind may be echoed. */
const ANY_KIND = Symbol("any kind");

/** What to do about an error the controller logs, for the errors it is known to log. */
function hintFor(text: string): string {
  if (
    text.includes("Deployment name missing") ||
    text.includes("deployment name must be specified")
  )
    return " — the Foo has no spec.deploymentName; set it (kubectl edit foo)";
  return "";
}

/** HTTP status of the Kubernetes Status reasons a log may give instead of a code. */
const REASON_CODES: Record<string, number> = {
  Conflict: 409,
  AlreadyExists: 409,
  NotFound: 404,
  Invalid: 422,
  Forbidden: 403,
  Unauthorized: 401,
  BadRequest: 400,
  TooManyRequests: 429,
  InternalError: 500,
  ServerTimeout: 504,
  Timeout: 504,
};

/** The HTTP status a write's reason says: a Status reason, or the API's own words for a 409. */
function codeOfReason(reason: string | undefined): number | undefined {
  return reason ? (REASON_CODES[reason] ?? statusInError(reason)) : undefined;
}

/**
 * How soon after our write a watch line that did not say its event (the reader assumed "add") is
 * taken for that write's echo, an update: echoes take milliseconds; the exercise's
 * `kubectl delete …; sleep 3; kubectl apply …` re-creates the Foo seconds later.
 */
const ASSUMED_ADD_ECHO_US = 1_000_000;

function echoKindOf(e: WriteEvent): OpenWrite["echoKind"] {
  if (e.target.startsWith("deployments/")) return "Deployment";
  if (e.target.startsWith("foos/")) return "Foo";
  if (e.verb === "create") return "Deployment";
  if (e.verb === "updateStatus") return "Foo";
  return undefined;
}

/** Fields common to a run; undefined while no pass of the run named its fields. */
function intersect(a: string[] | undefined, b: string[]): string[] | undefined {
  if (b.length === 0) return a;
  if (a === undefined) return [...b];
  // A write may name thousands of fields: no scan of one list per name of the other.
  const inB = new Set(b);
  return a.filter((x) => inB.has(x));
}
