/**
 * A client-node 1.4.0 informer (ListWatch) wrapped to do what client-go's reflector and shared
 * informer do for sample-controller, and client-node leaves to its user:
 *
 * - **Restart after errors.** client-node stops for good on any error other than a normal close or
 *   a 410 (HTTP 500, connection refused, a failed list). We restart it with exponential backoff
 *   (default 200 ms → 30 s, reset after a successful start).
 * - **Our stop is not a failure.** client-node's `stop()` aborts the watch, which reports an
 *   AbortError through the same `error` callback; while stopping, errors are ignored and no
 *   restart is scheduled. A start racing a stop is stopped again when it settles.
 * - **No double start.** `start()` while started returns the same promise.
 * - **Old objects for updates.** client-node's update callback has only the new object; we keep
 *   our own store (the lister's cache) so handlers get `(old, new)` like client-go.
 * - **Periodic resync** (client-node has none): every `resyncMs` each cached object is re-delivered
 *   as `update(obj, obj)` — equal resourceVersions, as client-go's Sync deltas.
 * - **A re-list re-delivers every object** (after a 410 Gone, or a restart after errors): client-go
 *   replaces its store with the list and calls `update(old, new)` for each object it had, changed
 *   or not; client-node's ListWatch only for those whose resourceVersion changed. The others are
 *   handed over as `update(old, listed)` once the list is delivered, so a re-list shows as it does
 *   under the Go controller: a pass for every Foo.
 * - **Recovery is told.** The first start that succeeds after failures — its list and watch, or the
 *   watch alone when it resumes from its last resourceVersion — is reported (`onRecover`), once:
 *   what failed (a 404 of a deleted CRD, a refused connection) answers again.
 * - **Cache sync.** `hasSynced()` turns true once a list has been delivered and the watch opened;
 *   `waitForCacheSync()` resolves then (or false if stopped first).
 * - **Adds of the initial list** (client-go's `OnAdd(obj, isInInitialList)`): an add is `initial`
 *   when it delivers an object of the informer's first successful list — one that existed before
 *   the informer started. Adds from the watch, and from a later re-list (after a 410 Gone: objects
 *   created while nobody watched), are not. client-node's ListWatch has no such flag: it hands
 *   the list's own item objects to `add`, synchronously after our list function returns, so an
 *   add is initial when its object is one of that list's items.
 * - **A watch that may be dead is replaced.** `rewatch()` (its user calls it when the cluster
 *   answers again after an outage) ends the open watch and opens a new one at once from the last
 *   resourceVersion seen — a watch open across an outage may be dead without a word: through a
 *   proxy, a tunnel or a load balancer, the connection's near end lives on and answers TCP
 *   keepalive, and the informer would stay deaf for good — or ends a backoff wait early. A watch
 *   that dies so without an outage seen is caught by its own timeout (see ReflectorWatch).
 *
 * Invariants: the store always equals the set of objects delivered by add/update minus delete;
 * handlers run synchronously in the order client-node delivers events; at most one restart timer
 * is pending; after `stop()` resolves no handler runs again (until `start()` is called anew).
 */
import { ReflectorWatch, WatchCut } from "./reflector-watch.ts";
import { isAbandoned } from "../abandonable-calls.ts";
import {
  ListWatch,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from "@kubernetes/client-node";

export interface InformerHandlers<T> {
  /** `initial`: the object came in the informer's initial list (see the module comment). */
  add?(obj: T, initial: boolean): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
}

export interface InformerError {
  /** What failed, for a one-line message ("list Foo", "watch Deployment"). */
  kind: string;
  error: unknown;
  /** Consecutive failures so far, and when the next attempt is. */
  attempt: number;
  retryInMs: number;
}

export interface InformerRecovery {
  /** Kind name ("Foo"). */
  kind: string;
  /** The consecutive failures before this success. */
  after: number;
}

export interface ResilientInformerOptions<T extends KubernetesObject> {
  kubeConfig: KubeConfig;
  /** Kind name for messages ("Foo"). */
  kind: string;
  /** Watch path, e.g. "/apis/apps/v1/deployments". */
  path: string;
  list: () => Promise<KubernetesListObject<T>>;
  /** The watch's field selector (`list` must ask for the same one). */
  fieldSelector?: string;
  /** Resync period in ms; 0 disables. Default 30 000 (sample-controller's factories). */
  resyncMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  onError?: (e: InformerError) => void;
  /** A start succeeded after failures (see "Recovery is told"). */
  onRecover?: (e: InformerRecovery) => void;
  /**
   * A new watch opens, other than at the timeout the old one asked for: the server closed the
   * old one early (`closed`), or it ended with 410 Gone (`gone`: its resourceVersion was too old,
   * so everything is listed again), or it was cut — by `rewatch()` after an outage (`outage`), or
   * because the server's end never came (`silent`); or the list before it was abandoned (see
   * AbandonableCalls) and is made again (`abandoned`).
   */
  onRewatch?: (e: { kind: string; why: RewatchCause }) => void;
  /** Each watch's timeout, s (default: 5–10 min at random, as client-go's reflector). */
  watchTimeoutSeconds?: () => number;
}

export type RewatchCause = "closed" | "gone" | "outage" | "silent" | "abandoned";

export function objectKey(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

export class ResilientInformer<T extends KubernetesObject> {
  private readonly lw: ListWatch<T>;
  private readonly watch: ReflectorWatch;
  private readonly store = new Map<string, T>();
  private readonly handlers: Array<InformerHandlers<T>> = [];
  private starting: Promise<void> | undefined;
  private running = false;
  private stopping = false;
  private synced = false;
  private listedThisStart = false;
  /** The items of the first list, until synced: their adds are initial. */
  private initialItems: WeakSet<T> | undefined;
  private listedOnce = false;
  /** A re-list's items, until its delivery completes (see "A re-list re-delivers"). */
  private relisted: T[] | undefined;
  private failedThisStart = false;
  private failures = 0;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private connectsThisStart = 0;
  private resyncTimer: ReturnType<typeof setInterval> | undefined;
  private syncWaiters: Array<(ok: boolean) => void> = [];
  readonly resyncMs: number;
  private readonly backoffInitialMs: number;
  private readonly backoffMaxMs: number;

  constructor(private readonly opts: ResilientInformerOptions<T>) {
    this.resyncMs = opts.resyncMs ?? 30_000;
    this.backoffInitialMs = opts.backoffInitialMs ?? 200;
    this.backoffMaxMs = opts.backoffMaxMs ?? 30_000;
    this.watch = new ReflectorWatch(opts.kubeConfig, opts.watchTimeoutSeconds);
    const list = async () => {
      const result = await opts.list();
      // A list answered after stop() must not open a watch nobody will close.
      if (this.stopping) throw new Error("informer stopped");
      this.listedThisStart = true;
      if (!this.listedOnce) {
        this.listedOnce = true;
        this.initialItems = new WeakSet(result.items);
      } else this.relisted = result.items;
      return result;
    };
    this.watch.beforeWatch = () => this.redeliverRelisted();
    this.lw = new ListWatch<T>(opts.path, this.watch, list, false, undefined, opts.fieldSelector);
    this.lw.on("add", (obj) => this.onAdd(obj));
    this.lw.on("update", (obj) => this.onUpdate(obj));
    this.lw.on("delete", (obj) => this.onDelete(obj));
    this.lw.on("error", (err) => this.onError(err));
    // "connect" comes before every (re)opening of the watch; the first of a start is its own,
    // and one after the server ended a watch at its timeout is routine.
    this.lw.on("connect", () => {
      if (++this.connectsThisStart > 1 && !this.stopping && !this.watch.endedOnTime()) {
        this.opts.onRewatch?.({
          kind: this.opts.kind,
          why: this.lw.latestResourceVersion() === "" ? "gone" : "closed",
        });
      }
    });
  }

  addEventHandler(h: InformerHandlers<T>): void {
    this.handlers.push(h);
  }

  /** Lists, delivers, opens the watch. Never rejects: failures go to backoff restarts. */
  start(): Promise<void> {
    if (this.running) return this.starting ?? Promise.resolve();
    this.running = true;
    this.stopping = false;
    this.watch.reopen();
    this.starting = this.attempt();
    if (this.resyncMs > 0 && !this.resyncTimer) {
      this.resyncTimer = setInterval(() => this.resync(), this.resyncMs);
      this.resyncTimer.unref?.();
    }
    return this.starting;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true once synced, false if stopped before. */
  waitForCacheSync(): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (!this.running) return Promise.resolve(false);
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.running = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.resyncTimer = undefined;
    // Every watch, and one a start in flight opens later: a watch left open holds its
    // connection, and the process, until the server ends it.
    this.watch.close();
    await this.lw.stop();
    // A start in flight may open its watch after the abort above; abort that one too.
    if (this.starting) await this.starting;
    await this.lw.stop();
    this.starting = undefined;
    const waiters = this.syncWaiters.splice(0);
    for (const w of waiters) w(false);
  }

  /**
   * Ends the open watch and opens a new one from the last resourceVersion seen (a list first, if
   * the server says that is too old). An informer waiting out its backoff after failures tries
   * again now instead: the cluster answers again, so the wait is for nothing.
   */
  rewatch(): void {
    if (!this.running || this.stopping) return;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      this.starting = this.attempt();
    } else if (this.watch.cut(new WatchCut(`the ${this.opts.kind} watch was replaced`))) {
      this.opts.onRewatch?.({ kind: this.opts.kind, why: "outage" });
    }
  }

  /** The lister: the cached object, or undefined. */
  get(namespace: string, name: string): T | undefined {
    return this.store.get(namespace ? `${namespace}/${name}` : name);
  }

  list(namespace?: string): T[] {
    const all = [...this.store.values()];
    return namespace ? all.filter((o) => o.metadata?.namespace === namespace) : all;
  }

  /** Re-delivers every cached object as update(obj, obj) (what a resync period does). */
  resync(): void {
    if (!this.synced || this.stopping) return;
    for (const obj of [...this.store.values()]) {
      for (const h of this.handlers) h.update?.(obj, obj);
    }
  }

  /**
   * After a re-list's delivery: each listed object client-node did not hand over (its
   * resourceVersion unchanged) goes to the handlers as `update(old, listed)`, as client-go's
   * Replace does. An object it did hand over is the listed one in the store by now.
   */
  private redeliverRelisted(): void {
    const items = this.relisted;
    this.relisted = undefined;
    if (!items || this.stopping) return;
    for (const obj of items) {
      const key = objectKey(obj);
      const old = this.store.get(key);
      if (old === undefined || old === obj) continue;
      this.store.set(key, obj);
      for (const h of this.handlers) h.update?.(old, obj);
    }
  }

  private async attempt(): Promise<void> {
    this.connectsThisStart = 0;
    this.listedThisStart = false;
    this.failedThisStart = false;
    try {
      await this.lw.start();
    } catch (err) {
      // client-node reports failures through `error`; a throw here (e.g. no current cluster) too.
      this.onError(err);
    }
    if (this.stopping || this.failedThisStart) return;
    const after = this.failures;
    this.failures = 0;
    if (after > 0) this.opts.onRecover?.({ kind: this.opts.kind, after });
    if (!this.synced && (this.listedThisStart || this.lw.latestResourceVersion() !== "")) {
      this.synced = true;
      this.initialItems = undefined;
      const waiters = this.syncWaiters.splice(0);
      for (const w of waiters) w(true);
    }
  }

  private onError(err: unknown): void {
    this.failedThisStart = true;
    if (this.stopping || !this.running) return;
    if (isAbandoned(err)) {
      // A list given up by its owner (the cluster answers again, and it may never be answered):
      // no failure of the cluster's, so none to count and no backoff — list again now.
      this.opts.onRewatch?.({ kind: this.opts.kind, why: "abandoned" });
      if (!this.restartTimer) this.starting = this.attempt();
      return;
    }
    if (err instanceof WatchCut) {
      // Our own doing: no failure to count or report, no backoff.
      if (err.silent) this.opts.onRewatch?.({ kind: this.opts.kind, why: "silent" });
      if (!this.restartTimer) this.starting = this.attempt();
      return;
    }
    this.failures++;
    const delay = Math.min(this.backoffMaxMs, this.backoffInitialMs * 2 ** (this.failures - 1));
    this.opts.onError?.({
      kind: `${this.listedThisStart || this.lw.latestResourceVersion() ? "watch" : "list"} ${this.opts.kind}`,
      error: err,
      attempt: this.failures,
      retryInMs: delay,
    });
    if (this.restartTimer) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping || !this.running) return;
      this.starting = this.attempt();
    }, delay);
  }

  private onAdd(obj: T): void {
    this.store.set(objectKey(obj), obj);
    const initial = this.initialItems?.has(obj) ?? false;
    for (const h of this.handlers) h.add?.(obj, initial);
  }

  private onUpdate(obj: T): void {
    const key = objectKey(obj);
    const old = this.store.get(key) ?? obj;
    this.store.set(key, obj);
    for (const h of this.handlers) h.update?.(old, obj);
  }

  private onDelete(obj: T): void {
    this.store.delete(objectKey(obj));
    for (const h of this.handlers) h.delete?.(obj);
  }
}
