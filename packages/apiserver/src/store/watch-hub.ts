/**
 * Fans store changes out to watchers and keeps a bounded history per resource type so a watch can
 * resume from a recent resourceVersion — per type, as kube-apiserver's watch cache is, so a Foo
 * watch resumes after a drop however many pods and Events changed meanwhile.
 *
 * Invariants:
 * - a watcher receives every matching change with rv > its start RV (and none before, even live
 *   ones when it started ahead of the store), in RV order, exactly once:
 *   replay from history and live registration happen in one synchronous step;
 * - `compactedRv(type)` is the largest RV whose successors of that type may be missing from its
 *   history; a watch from an RV below it is Expired (410), one at or above it is served completely;
 * - a selector-filtered watcher sees an object entering its selection as ADDED and leaving it as
 *   DELETED, as on a real server.
 */
import type { KObject } from "../object.ts";
import type { ResourceDef } from "../resources/resource.ts";
import { matchesSelector, type Selector } from "../selectors.ts";
import type { ChangeType, ObjectStore, StoreChange } from "./object-store.ts";

export interface WatchEvent {
  type: ChangeType;
  object: KObject;
}

export interface WatchSpec {
  resource: ResourceDef;
  /** Only this namespace (undefined: all). */
  namespace?: string;
  selector: Selector;
}

export interface Watcher {
  spec: WatchSpec;
  send(event: WatchEvent): void;
  /** Ends the stream (server-side close). */
  close(): void;
  /** Leaves the stream open and never writes to it again (see WatchHub.silenceAll). */
  silence(): void;
}

export type StartResult = { ok: true; cancel: () => void } | { ok: false; oldest: number };

/** One resource type's recent changes. */
interface History {
  changes: StoreChange[];
  compactedRv: number;
}

export class WatchHub {
  readonly #histories = new Map<ResourceDef, History>();
  #started = 0;
  readonly #capacity: number;
  /** What the hub cannot replay for any type: the changes made before it existed. */
  readonly #startRv: number;
  readonly #watchers = new Set<Watcher>();
  /**
   * A watcher started from a resourceVersion sees only changes after it, live ones too: one
   * started ahead of the store (a version it has yet to reach) skips those up to it, as the
   * watch cache's watchers do.
   */
  readonly #floors = new WeakMap<Watcher, number>();

  constructor(store: ObjectStore, capacity: number) {
    this.#capacity = Math.max(1, capacity);
    this.#startRv = store.currentRv;
    store.subscribe((c) => this.#onChange(c));
  }

  get size(): number {
    return this.#watchers.size;
  }

  /** Watch streams started so far. */
  get started(): number {
    return this.#started;
  }

  compactedRv(resource: ResourceDef): number {
    return this.#historyOf(resource).compactedRv;
  }

  #historyOf(resource: ResourceDef): History {
    let h = this.#histories.get(resource);
    if (!h) this.#histories.set(resource, (h = { changes: [], compactedRv: this.#startRv }));
    return h;
  }

  /**
   * Registers `watcher`. `fromRv` undefined means "from now" (the caller sends the initial
   * state itself); a number replays the history after it, or fails when it is too old.
   */
  start(watcher: Watcher, fromRv: number | undefined): StartResult {
    if (fromRv !== undefined) {
      const history = this.#historyOf(watcher.spec.resource);
      if (fromRv < history.compactedRv) return { ok: false, oldest: history.compactedRv + 1 };
      for (const change of history.changes) {
        if (change.rv > fromRv) this.#deliver(watcher, change);
      }
      this.#floors.set(watcher, fromRv);
    }
    this.#watchers.add(watcher);
    this.#started++;
    return { ok: true, cancel: () => this.#watchers.delete(watcher) };
  }

  /** Closes every stream; each watcher's close() must lead to its cancel(). */
  closeAll(): void {
    for (const w of [...this.#watchers]) {
      this.#watchers.delete(w);
      w.close();
    }
  }

  /**
   * `resource`'s storage is torn down (its CRD is gone): its open streams end, as the real
   * server's watch cache ends them, and its history goes too — a storage made anew starts its
   * watch cache from now, so a watch from an older resourceVersion is Expired (410).
   */
  endResource(resource: ResourceDef, currentRv: number): void {
    for (const w of [...this.#watchers]) {
      if (w.spec.resource !== resource) continue;
      this.#watchers.delete(w);
      w.close();
    }
    this.#histories.set(resource, { changes: [], compactedRv: currentRv });
  }

  /**
   * Every open stream stays open and silent for good — no event, bookmark or end: what a client
   * holds when the connection died without a word behind a proxy that keeps its own end alive.
   */
  silenceAll(): void {
    for (const w of [...this.#watchers]) {
      this.#watchers.delete(w);
      w.silence();
    }
  }

  #onChange(change: StoreChange): void {
    const history = this.#historyOf(change.resource);
    history.changes.push(change);
    if (history.changes.length > this.#capacity) {
      const dropped = history.changes.splice(0, history.changes.length - this.#capacity);
      history.compactedRv = dropped[dropped.length - 1].rv;
    }
    for (const w of this.#watchers) this.#deliver(w, change);
  }

  #deliver(w: Watcher, change: StoreChange): void {
    if (change.rv <= (this.#floors.get(w) ?? 0)) return;
    const event = translate(w.spec, change);
    if (event) w.send(event);
  }
}

function inScope(spec: WatchSpec, obj: KObject | undefined): boolean {
  if (!obj) return false;
  if (spec.namespace && obj.metadata.namespace !== spec.namespace) return false;
  return matchesSelector(spec.selector, obj);
}

/** What a watcher with `spec` should see for `change`, if anything. */
export function translate(spec: WatchSpec, change: StoreChange): WatchEvent | undefined {
  if (change.resource !== spec.resource) return undefined;
  const now = inScope(spec, change.object);
  if (change.type === "DELETED")
    return now ? { type: "DELETED", object: change.object } : undefined;
  const before = change.type === "MODIFIED" && inScope(spec, change.previous);
  if (now && before) return { type: "MODIFIED", object: change.object };
  if (now) return { type: "ADDED", object: change.object };
  if (before) return { type: "DELETED", object: change.object };
  return undefined;
}
