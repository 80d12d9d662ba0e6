/**
 * Turns what the proxy saw on the wire into trace events for the same Analyzer and dashboard as
 * the probe's: the controller's informers cannot be seen, its writes and the watch events it
 * receives can. A pure state machine — time only moves when `observe` or `advance` says so — so
 * the rules below are tested without clocks (wire-tracer.test.ts).
 *
 * What is emitted, per primary object (the key "ns/name" of a Foo, or of `--for`'s kinds):
 * - `watch`: each watch event (and each item of a list, which an informer delivers as an add)
 *   about the object or about an object it controls through ownerReferences — and an `enqueue`
 *   marked `inferred` for it, since controllers enqueue their owner on every such event;
 * - `read`: a GET of the primary object itself that reached the API;
 * - `write`: each write the controller made to it or to what it controls, with the status code,
 *   the returned resourceVersion and whether it changed the object;
 * - `done` marked `inferred`: the end of a pass; and after a failed pass, an `enqueue` with cause
 *   `retry` marked `inferred` (the controller's rate-limited re-add).
 *
 * Passes are not on the wire. The rules (KeyPasses keeps them, one key each):
 * 1. A pass begins when a read or write of a key with no pass open reaches the proxy (its dequeue
 *    came just before: a lister read and some arithmetic). Its triggers are the key's watch events
 *    the controller had received by then: those the proxy passed on before, except any the
 *    request itself shows unseen — a body whose resourceVersion is older than a watch event of
 *    that object was computed from a cache that had not taken the event in yet (a 409's usual
 *    story); that event and those after it wait for the next pass. The Analyzer gives the pass it
 *    opens at the first read or write every enqueue before it (no dequeue: `fromMarkers`).
 * 2. Watch events that come while a pass is open are parked, as the workqueue parks them: they
 *    trigger the next pass. So do those that come after the pass began and before its first answer.
 * 3. A pass ends after a status write to its primary object (controllers write status last),
 *    after a failed write (controllers return on error: outcome `requeued`), or when `passGapMs`
 *    go by without another read or write of the key.
 * 4. After a failed pass the key comes back rate-limited (5 ms × 2^n): that re-add triggers the
 *    next pass, or the one after when watch events were parked during the failed one.
 * 5. A pass never runs without a trigger: when the next pass shows none, the latest trigger given
 *    to the pass before it is moved to it (the event reached the controller after its worker had
 *    taken the key, though before that pass's request reached the proxy).
 * A pass that neither reads nor writes through the API cannot be seen: its triggers are counted
 * with the key's next visible pass.
 *
 * Which kinds are primary: `primaries` ("group/Kind"), or — when none are given — the kinds the
 * controller writes status to. Until its first status write names one, observations are held
 * (at most `learnLimit`, the oldest dropped first) and then traced in their order.
 *
 * Invariants: each event carries its observation's time (a `done` its pass's last read or write);
 * a key's events come out in the order the rules above put them in, a pass's once the key's next
 * pass begins or the key has been quiet for `passGapMs` (KeyPasses), and all by `flush`; an
 * `enqueue` names its watch event by `causeSeq` (the seq `emit` returned for it).
 */
import type { UnsequencedEvent, WatchVerb } from "@loopscope/trace";
import { isWrite, targetOf, type ApiRequest } from "./api-path.ts";
import { KeyPasses } from "./key-passes.ts";
import { ObjectIndex } from "./object-index.ts";
import { objectMeta } from "./object-meta.ts";
import { groupKind, type ObjectMeta, type OwnerRef, type WireObservation } from "./wire.ts";

export interface WireTracerOptions {
  /** Takes each event; returns the seq the stream's owner gave it. */
  emit(e: UnsequencedEvent): number;
  /** "group/Kind" of the primary objects; none = learn them from status writes. */
  primaries?: readonly string[];
  /** Quiet time that ends a pass (default 250 ms). */
  passGapMs?: number;
  /** Observations held while the primary kinds are not known yet (default 10 000). */
  learnLimit?: number;
  /** Called once when a kind becomes primary (for a line on stderr). */
  onPrimary?(groupKind: string): void;
}

export const DEFAULT_PASS_GAP_MS = 250;

export class WireTracer {
  /** Every object seen, by any response: owners, and the rv an object had before a write. */
  private readonly index = new ObjectIndex();
  /** What the watchers were told (watch events, lists): an informer's cache, for `oldRv`. */
  private readonly watched = new ObjectIndex();
  private readonly primaries = new Set<string>();
  /** The resources ("group/resource") a list of was passed on: a list of another is an initial one. */
  private readonly listed = new Set<string>();
  private readonly keys = new Map<string, KeyPasses>();
  /** Keys with a pass open, begun or held, or triggers waiting: what `advance` may act on. */
  private readonly timed = new Set<KeyPasses>();
  private readonly gapUs: number;
  private readonly learnLimit: number;
  /** Observations held until a primary kind is known; undefined once one is. */
  private backlog: WireObservation[] | undefined;

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

  observe(ob: WireObservation): void {
    if (this.backlog !== undefined) {
      const kind = this.statusWriteKind(ob);
      if (kind === undefined) {
        this.backlog.push(ob);
        if (this.backlog.length > this.learnLimit) this.backlog.shift();
        return;
      }
      const held = this.backlog;
      this.backlog = undefined;
      this.addPrimary(kind);
      for (const h of held) this.trace(h);
    }
    this.trace(ob);
  }

  /** Time is now `nowUs`: ends quiet passes and lets out what no longer needs holding. */
  advance(nowUs: number): void {
    for (const st of this.timed) {
      st.advance(nowUs);
      if (!st.busy) this.timed.delete(st);
    }
  }

  /** Ends every open pass and lets everything held go (the proxy is stopping). */
  flush(): void {
    for (const st of this.timed) st.flush();
    this.timed.clear();
  }

  // ── observations ───────────────────────────────────────────────────────────────────────────

  private trace(ob: WireObservation): void {
    this.advance(ob.ts);
    switch (ob.type) {
      case "watch":
        if (ob.resource) this.learnKinds(ob.resource, [ob.object]);
        return this.watch(ob.ts, ob.event, ob.object);
      case "list": {
        if (ob.resource) this.learnKinds(ob.resource, ob.items);
        // An informer's first list of a resource is its initial list: its adds are of objects
        // that were there before it started (client-go's isInInitialList); a later one re-lists.
        const resource = ob.resource && `${ob.resource.group}/${ob.resource.resource}`;
        const initial = resource !== undefined && !this.listed.has(resource);
        if (resource !== undefined) this.listed.add(resource);
        for (const item of ob.items) {
          const known = this.watched.get(item);
          // An informer relisting delivers what changed; an object it had unchanged is no news.
          if (known?.rv !== undefined && known.rv === item.rv) continue;
          this.watch(ob.ts, known ? "MODIFIED" : "ADDED", item, initial);
        }
        return;
      }
      case "begin":
        return this.begin(ob);
      case "read":
        return this.read(ob);
      case "write":
        return this.write(ob);
    }
  }

  private watch(
    ts: number,
    type: "ADDED" | "MODIFIED" | "DELETED",
    m: ObjectMeta,
    initial = false,
  ): void {
    const before = this.watched.get(m);
    // A second watch of the same objects (two informers of one kind, a curl beside the
    // controller) tells of each change again: what the watchers were told already is no news.
    // Told as news, an update of the same version read as a resync (oldRv = rv).
    if (type !== "DELETED" && before?.rv !== undefined && before.rv === m.rv) return;
    if (
      type === "DELETED" &&
      before === undefined &&
      m.uid !== undefined &&
      this.watched.isGone(m.uid)
    )
      return;
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
    if (event === "add" && initial) e.initial = true;
    if (key === "") {
      this.o.emit(e);
      return;
    }
    this.passes(key).watch(e, this.index.nameKeyOf(m), m.rv);
  }

  private begin(ob: Extract<WireObservation, { type: "begin" }>): void {
    const m = this.sentObject(ob.request, ob.sent) ?? this.objectOf(ob.request);
    if (!m) return;
    const known = this.index.get(m);
    const key =
      ob.request.verb === "get"
        ? this.isPrimary(m.group, m.kind)
          ? nsName(m.namespace, m.name)
          : undefined
        : this.keyOf(m.owner === undefined && known ? { ...m, owner: known.owner } : m);
    if (key === undefined || key === "") return;
    const sent = ob.sent !== undefined ? { object: this.index.nameKeyOf(m), rv: m.rv } : undefined;
    this.passes(key).begin(ob.ts, sent);
  }

  private read(ob: Extract<WireObservation, { type: "read" }>): void {
    const m = ob.object ?? this.objectOf(ob.request);
    if (!m || !this.isPrimary(m.group, m.kind)) return;
    if (ob.object) this.index.put(ob.object);
    const key = nsName(m.namespace, m.name);
    const e: UnsequencedEvent = { stage: "read", ts: ob.ts, key };
    if (ob.code === 404) e.found = false;
    else if (ob.code >= 400) return; // not an answer about the object (403, 500 …)
    if (ob.object?.rv !== undefined) e.rv = ob.object.rv;
    this.passes(key).activity(e);
  }

  private write(ob: Extract<WireObservation, { type: "write" }>): void {
    const r = ob.request;
    const sent = this.sentObject(r, ob.sent);
    const m = ob.object ?? sent ?? this.objectOf(r);
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
      const rvSent = r.verb === "update" ? sent?.rv : undefined;
      const changed = changedBy(r, ob.object?.rv, rvSent ?? before?.rv);
      if (changed !== undefined) e.changed = changed;
    }
    const st = this.passes(key);
    st.activity(e);
    const statusOfPrimary = r.subresource === "status" && this.isPrimary(m.group, m.kind);
    if (!ok || statusOfPrimary) st.end(!ok);
  }

  /** The key's passes; the key is timed from now on (`advance` drops it once idle). */
  private passes(key: string): KeyPasses {
    let st = this.keys.get(key);
    if (st === undefined) {
      st = new KeyPasses(key, this.o.emit, this.gapUs);
      this.keys.set(key, st);
    }
    this.timed.add(st);
    return st;
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

  /** The object a request names in its URL, by what the index knows of its resource's kind. */
  private objectOf(r: ApiRequest): ObjectMeta | undefined {
    const kind = this.index.kindOf(r.group, r.resource);
    if (kind === undefined || r.name === undefined) return undefined;
    const m: ObjectMeta = { group: r.group, kind, name: r.name };
    if (r.namespace !== undefined) m.namespace = r.namespace;
    return this.index.get(m) ?? m;
  }

  /** The object a request body carries (its kind, when the body omits it, from the URL's resource). */
  private sentObject(r: ApiRequest, sent: unknown): ObjectMeta | undefined {
    if (sent === undefined) return undefined;
    const kind = this.index.kindOf(r.group, r.resource);
    const apiVersion = r.group === "" ? r.version : `${r.group}/${r.version}`;
    const m = objectMeta(sent, kind === undefined ? undefined : { kind, apiVersion });
    if (m && m.namespace === undefined && r.namespace !== undefined) m.namespace = r.namespace;
    return m;
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
