/**
 * Turns what the proxy saw on the wire into trace events for the same Analyzer and dashboard as
 * the probe's: the controller's informers cannot be seen, its writes and the watch events it
 * receives can. A pure state machine — time only moves when `observe` or `advance` says so — so
 * the rules below are tested without clocks (wire-tracer.test.ts).
 *
 * What is emitted, per primary object (the key "ns/name" of a Foo, or of `--for`'s kinds):
 * - `watch`: each watch event (and each item of a list, which an informer delivers as an add)
 *   about the object or about an object it controls through ownerReferences — followed by an
 *   `enqueue` marked `inferred`, since controllers enqueue their owner on every such event;
 * - `read`: a GET of the primary object itself that reached the API;
 * - `write`: each write the controller made to it or to what it controls, with the status code,
 *   the returned resourceVersion and whether it changed the object;
 * - `done` marked `inferred`: the end of a pass. Passes are not on the wire; the rules:
 *   1. a read or write of a key with no pass open opens one (the Analyzer opens it at that event
 *      and gives it the key's triggers so far — passes have no dequeue: `fromMarkers`);
 *   2. the pass ends after a status write to its primary object (controllers write status last),
 *      after a failed write (controllers return on error: outcome `requeued`), or when
 *      `passGapMs` go by without another read or write of the key;
 *   3. watch events that arrived while the pass ran made the workqueue hold the key (dirty while
 *      processing): the next pass starts at once at Done and takes exactly those. Watch events
 *      that come after the end go to the pass after that one, until the owed pass shows itself —
 *      or `passGapMs` pass without it (it wrote nothing), when they join the owed triggers.
 *   A pass that neither reads nor writes through the API cannot be seen: its triggers are
 *   counted with the key's next visible pass.
 *
 * Which kinds are primary: `primaries` ("group/Kind"), or — when none are given — the kinds the
 * controller writes status to. Until its first status write names one, observations are held
 * (at most `learnLimit`, the oldest dropped first) and then traced in their order.
 *
 * Invariants: events come out in the order of the observations that caused them, each at the
 * observation's time (a `done` at its pass's last read or write); a watch event's `enqueue` names
 * it by `causeSeq` (the seq `emit` returned for it).
 */
import type { UnsequencedEvent, WatchVerb } from "@loopscope/trace";
import { isWrite, targetOf, type ApiRequest } from "./api-path.ts";
import { ObjectIndex } from "./object-index.ts";
import { groupKind, type ObjectMeta, type OwnerRef, type WireObservation } from "./wire.ts";

export interface WireTracerOptions {
  /** Takes each event; returns the seq the stream's owner gave it. */
  emit(e: UnsequencedEvent): number;
  /** "group/Kind" of the primary objects; none = learn them from status writes. */
  primaries?: readonly string[];
  /** Quiet time that ends a pass, and that an owed pass may take to show (default 250 ms). */
  passGapMs?: number;
  /** Observations held while the primary kinds are not known yet (default 10 000). */
  learnLimit?: number;
  /** Called once when a kind becomes primary (for a line on stderr). */
  onPrimary?(groupKind: string): void;
}

/** What the tracer knows of one key's passes. */
interface KeyPasses {
  key: string;
  open: boolean;
  /** µs of the open pass's latest read or write. */
  last: number;
  failed: boolean;
  /** Enqueues emitted that no pass has taken yet. */
  pending: number;
  /** A pass is owed: it ended with triggers pending (since `owedSince`, µs). */
  owed: boolean;
  owedSince: number;
  /** Watch events (seq, µs) for the pass after the owed one; their enqueues wait. */
  held: { seq: number; ts: number }[];
}

export const DEFAULT_PASS_GAP_MS = 250;

export class WireTracer {
  /** Every object seen, by any response: owners, and the rv an object had before a write. */
  private readonly index = new ObjectIndex();
  /** What the watchers were told (watch events, lists): an informer's cache, for `oldRv`. */
  private readonly watched = new ObjectIndex();
  private readonly primaries = new Set<string>();
  private readonly keys = new Map<string, KeyPasses>();
  /** Keys with an open or owed pass: the ones `advance` may have to close. */
  private readonly timed = new Set<KeyPasses>();
  private readonly gapUs: number;
  private readonly learnLimit: number;
  /** Observations held until a primary kind is known; undefined once one is. */
  private backlog: WireObservation[] | undefined;
  private dropped = 0;

  constructor(private readonly o: WireTracerOptions) {
    this.gapUs = (o.passGapMs ?? DEFAULT_PASS_GAP_MS) * 1000;
    this.learnLimit = o.learnLimit ?? 10_000;
    for (const p of o.primaries ?? []) this.primaries.add(p);
    if (this.primaries.size === 0) this.backlog = [];
  }

  /** The primary kinds ("group/Kind") known so far. */
  primaryKinds(): string[] {
    return [...this.primaries];
  }

  /** Observations dropped from the backlog while no primary kind was known. */
  get droppedWhileLearning(): number {
    return this.dropped;
  }

  observe(ob: WireObservation): void {
    if (this.backlog !== undefined) {
      const kind = this.statusWriteKind(ob);
      if (kind === undefined) {
        this.backlog.push(ob);
        if (this.backlog.length > this.learnLimit) {
          this.backlog.shift();
          this.dropped++;
        }
        return;
      }
      const held = this.backlog;
      this.backlog = undefined;
      this.addPrimary(kind);
      for (const h of held) this.trace(h);
    }
    this.trace(ob);
  }

  /** Time is now `nowUs`: ends the passes (and owed waits) that have been quiet long enough. */
  advance(nowUs: number): void {
    for (const st of this.timed) {
      if (st.open && nowUs - st.last >= this.gapUs) this.end(st, nowUs);
      if (st.owed && nowUs - st.owedSince >= this.gapUs) this.releaseHeld(st);
      if (!st.open && !st.owed) this.timed.delete(st);
    }
  }

  /** When `advance` will next have something to do (µs), if anything. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const st of this.timed) {
      const t = st.open ? st.last + this.gapUs : st.owedSince + this.gapUs;
      if (next === undefined || t < next) next = t;
    }
    return next;
  }

  /** Ends every open pass (the proxy is stopping: what was seen is all there will be). */
  flush(): void {
    for (const st of this.timed) if (st.open) this.end(st, st.last);
    this.timed.clear();
  }

  // ── observations ───────────────────────────────────────────────────────────────────────────

  private trace(ob: WireObservation): void {
    this.advance(ob.ts);
    switch (ob.type) {
      case "watch":
        if (ob.resource) this.learnKinds(ob.resource, [ob.object]);
        return this.watch(ob.ts, ob.event, ob.object);
      case "list":
        if (ob.resource) this.learnKinds(ob.resource, ob.items);
        for (const item of ob.items) {
          const known = this.watched.get(item);
          // An informer relisting delivers what changed; an object it had unchanged is no news.
          if (known?.rv !== undefined && known.rv === item.rv) continue;
          this.watch(ob.ts, known ? "MODIFIED" : "ADDED", item);
        }
        return;
      case "read":
        return this.read(ob);
      case "write":
        return this.write(ob);
    }
  }

  private watch(ts: number, type: "ADDED" | "MODIFIED" | "DELETED", m: ObjectMeta): void {
    const before = this.watched.get(m);
    const key = this.keyOf(m);
    for (const index of [this.index, this.watched]) {
      if (type === "DELETED") index.remove(m);
      else index.put(m);
    }
    if (key === undefined) return;
    const event: WatchVerb = type === "ADDED" ? "add" : type === "MODIFIED" ? "update" : "delete";
    const e: UnsequencedEvent = { stage: "watch", ts, key, kind: m.kind, event, name: m.name };
    if (m.namespace !== undefined) e.ns = m.namespace;
    if (m.rv !== undefined) e.rv = m.rv;
    if (event === "update" && before?.rv !== undefined) e.oldRv = before.rv;
    const seq = this.o.emit(e);
    if (key === "") return;
    const st = this.passes(key);
    if (st.owed) st.held.push({ seq, ts });
    else this.enqueue(st, seq, ts);
  }

  private read(ob: Extract<WireObservation, { type: "read" }>): void {
    const m = ob.object ?? this.objectOf(ob.request, undefined);
    if (!m || !this.isPrimary(m.group, m.kind)) return;
    if (ob.object) this.index.put(ob.object);
    const key = nsName(m.namespace, m.name);
    const e: UnsequencedEvent = { stage: "read", ts: ob.ts, key };
    if (ob.code === 404) e.found = false;
    else if (ob.code >= 400) return; // not an answer about the object (403, 500 …)
    if (ob.object?.rv !== undefined) e.rv = ob.object.rv;
    this.activity(this.passes(key), e);
  }

  private write(ob: Extract<WireObservation, { type: "write" }>): void {
    const r = ob.request;
    const m = ob.object ?? this.objectOf(r, undefined);
    if (!m) return;
    if (ob.object) this.index.learnKind(r.group, r.resource, ob.object.kind);
    const before = this.index.get(m);
    const key = this.keyOf(m.owner === undefined && before ? { ...m, owner: before.owner } : m);
    const ok = ob.code < 400;
    if (ok && ob.object) {
      if (r.verb === "delete" || r.verb === "deletecollection") this.index.remove(ob.object);
      else this.index.put(ob.object);
    }
    if (key === undefined || key === "") return;
    const e: UnsequencedEvent = {
      stage: "write",
      ts: ob.ts,
      key,
      verb: writeVerb(r),
      target: targetOf(r, m.name),
      code: ob.code,
    };
    if (ob.reason) e.reason = ob.reason;
    if (ok && ob.object?.rv !== undefined) e.rv = ob.object.rv;
    if (ok) {
      const changed = changedBy(r, ob.object?.rv, ob.rvSent ?? before?.rv);
      if (changed !== undefined) e.changed = changed;
    }
    const st = this.passes(key);
    this.activity(st, e);
    if (!ok) st.failed = true;
    const statusOfPrimary = r.subresource === "status" && this.isPrimary(m.group, m.kind);
    if (!ok || statusOfPrimary) this.end(st, ob.ts);
  }

  // ── passes ─────────────────────────────────────────────────────────────────────────────────

  private passes(key: string): KeyPasses {
    let st = this.keys.get(key);
    if (st === undefined) {
      st = {
        key,
        open: false,
        last: 0,
        failed: false,
        pending: 0,
        owed: false,
        owedSince: 0,
        held: [],
      };
      this.keys.set(key, st);
    }
    return st;
  }

  private enqueue(st: KeyPasses, causeSeq: number, ts: number): void {
    this.o.emit({ stage: "enqueue", ts, key: st.key, causeSeq, inferred: true });
    st.pending++;
  }

  /** A read or write of the key: it belongs to the open pass, or opens one. */
  private activity(st: KeyPasses, e: UnsequencedEvent): void {
    if (st.open) {
      this.o.emit(e);
    } else {
      st.open = true;
      st.failed = false;
      // The Analyzer gives the new pass every enqueue emitted so far …
      this.o.emit(e);
      st.pending = 0;
      // … and those held for the pass after it follow now.
      if (st.owed) this.releaseHeld(st);
      this.timed.add(st);
    }
    st.last = e.ts;
  }

  /** Ends the open pass; `at` (µs) is when that was decided: an owed pass is awaited from then. */
  private end(st: KeyPasses, at: number): void {
    if (!st.open) return;
    st.open = false;
    this.o.emit({
      stage: "done",
      ts: st.last,
      key: st.key,
      outcome: st.failed ? "requeued" : "synced",
      inferred: true,
    });
    if (st.pending > 0) {
      st.owed = true;
      st.owedSince = at;
      this.timed.add(st);
    }
  }

  private releaseHeld(st: KeyPasses): void {
    st.owed = false;
    const held = st.held;
    st.held = [];
    for (const h of held) this.enqueue(st, h.seq, h.ts);
  }

  // ── objects ────────────────────────────────────────────────────────────────────────────────

  /**
   * The key of the primary object `m` is, or is controlled by (through its owners' chain as far
   * as the index knows it); "" when that owner is known to be gone (an orphan); undefined when
   * `m` concerns no primary object.
   */
  private keyOf(m: ObjectMeta): string | undefined {
    let cur: ObjectMeta | undefined = m;
    for (let depth = 0; cur && depth < 8; depth++) {
      if (this.isPrimary(cur.group, cur.kind)) return nsName(cur.namespace, cur.name);
      const owner: OwnerRef | undefined = cur.owner;
      if (!owner) return undefined;
      if (this.isPrimary(owner.group, owner.kind)) {
        if (owner.uid !== undefined && this.index.isGone(owner.uid)) return "";
        // Owner references name an object of the dependent's own namespace (or a cluster-scoped one).
        return nsName(cur.namespace, owner.name);
      }
      cur = owner.uid !== undefined ? this.index.byUidOf(owner.uid) : undefined;
    }
    return undefined;
  }

  /** The object a request names, by what the index knows of its resource's kind. */
  private objectOf(r: ApiRequest, name: string | undefined): ObjectMeta | undefined {
    const kind = this.index.kindOf(r.group, r.resource);
    const n = name ?? r.name;
    if (kind === undefined || n === undefined) return undefined;
    const m: ObjectMeta = { group: r.group, kind, name: n };
    if (r.namespace !== undefined) m.namespace = r.namespace;
    return this.index.get(m) ?? m;
  }

  private learnKinds(r: { group: string; resource: string }, objects: ObjectMeta[]): void {
    if (objects.length > 0) this.index.learnKind(r.group, r.resource, objects[0].kind);
  }

  private isPrimary(group: string, kind: string): boolean {
    return this.primaries.has(groupKind(group, kind));
  }

  private addPrimary(gk: string): void {
    if (this.primaries.has(gk)) return;
    this.primaries.add(gk);
    this.o.onPrimary?.(gk);
  }

  /** The kind a successful status write is about, if `ob` is one (what makes a kind primary). */
  private statusWriteKind(ob: WireObservation): string | undefined {
    if (ob.type !== "write" || ob.request.subresource !== "status" || ob.code >= 400) return;
    if (ob.object) return groupKind(ob.object.group, ob.object.kind);
    const kind = this.index.kindOf(ob.request.group, ob.request.resource);
    return kind === undefined ? undefined : groupKind(ob.request.group, kind);
  }
}

function nsName(ns: string | undefined, name: string): string {
  return ns ? `${ns}/${name}` : name;
}

function writeVerb(r: ApiRequest): string {
  if (r.verb === "update" && r.subresource === "status") return "updateStatus";
  if (r.verb === "deletecollection") return "delete";
  return r.verb;
}

/**
 * Whether a successful write changed its object: a create or delete does; an update or patch
 * did when it returned another resourceVersion than the object had (a no-op write keeps it).
 */
function changedBy(
  r: ApiRequest,
  rvAfter: string | undefined,
  rvBefore: string | undefined,
): boolean | undefined {
  if (!isWrite(r.verb)) return undefined;
  if (r.verb === "create" || r.verb === "delete" || r.verb === "deletecollection") return true;
  if (rvAfter === undefined || rvBefore === undefined) return undefined;
  return rvAfter !== rvBefore;
}
