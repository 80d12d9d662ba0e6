/**
 * A work queue with client-go's `util/workqueue` semantics (queue.go), for string-like keys.
 *
 * Invariants (each one tested in queue.test.ts):
 * - **Fair**: items are handed out in the order they were added (FIFO), and workers blocked in
 *   `get()` are served in the order they called it.
 * - **Stingy**: an item is never held by two workers at once, and however many times it is added
 *   before a worker takes it, it is processed once. Every item in the FIFO is in `dirty` and not
 *   in `processing`.
 * - `add` of an item already waiting (dirty) is merged: returns `"dirty"`.
 * - `add` of an item a worker holds is parked: returns `"processing"`; `done` re-queues it, so the
 *   item is processed again after the current pass.
 * - `get` moves the head into `processing` and out of `dirty` when the worker takes it: at once if
 *   an item is ready, else in the microtask after the add that wakes it (client-go's Signal). In
 *   between, the item is still queued: `len()` counts it and another add merges as "dirty".
 * - `len` counts ready items only (not processing, not waiting in a delay).
 * - After `shutDown`, adds are ignored; `get` still returns queued items, then `{shutdown: true}`.
 *   `shutDownWithDrain` additionally resolves only once no item is being processed (or at a
 *   later `shutDown`).
 */
import { QueueMetrics, noopMetricsProvider, type WorkqueueMetricsProvider } from "./metrics.ts";

/**
 * How an add landed: appended (`false`), merged into a waiting item (`"dirty"`), parked behind a
 * worker (`"processing"`), or dropped because the queue is shutting down (`"ignored"`).
 */
export type AddResult = false | "dirty" | "processing" | "ignored";

export type GetResult<T> = { item: T; shutdown: false } | { item: undefined; shutdown: true };

export interface QueueOptions {
  /** Name used for metrics (client-go's queue name). */
  name?: string;
  metrics?: WorkqueueMetricsProvider;
  /** How often unfinished-work gauges are refreshed when metrics are on (client-go: 500 ms). */
  unfinishedWorkUpdatePeriodMs?: number;
}

export class Queue<T> {
  /** Ready items, FIFO. An array with a moving head keeps shift() O(1) amortised. */
  private fifo: T[] = [];
  private head = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: Array<(r: GetResult<T>) => void> = [];
  private shuttingDown = false;
  private serveScheduled = false;
  private drainWaiters: Array<() => void> = [];
  protected readonly metrics: QueueMetrics<T> | undefined;
  private readonly unfinishedTimer: ReturnType<typeof setInterval> | undefined;

  constructor(opts: QueueOptions = {}) {
    if (opts.metrics && opts.metrics !== noopMetricsProvider) {
      this.metrics = new QueueMetrics<T>(opts.name ?? "", opts.metrics);
      this.unfinishedTimer = setInterval(
        () => this.metrics?.updateUnfinishedWork(),
        opts.unfinishedWorkUpdatePeriodMs ?? 500,
      );
      this.unfinishedTimer.unref?.();
    }
  }

  /** Marks `item` as needing processing. Returns how it was merged (false = appended). */
  add(item: T): AddResult {
    if (this.shuttingDown) return "ignored";
    if (this.dirty.has(item)) return "dirty";
    // Counted when it becomes dirty, parked or not: depth includes an item waiting behind its
    // worker, and its latency runs from this add (client-go's Add).
    this.metrics?.add(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return "processing";
    this.push(item);
    return false;
  }

  /** Ready items (not counting items being processed or waiting for a delay). */
  len(): number {
    return this.fifo.length - this.head;
  }

  /** Resolves with the next item (now if one is ready), or `{shutdown: true}` once shut down and empty. */
  get(): Promise<GetResult<T>> {
    if (this.len() > 0) return Promise.resolve({ item: this.take(), shutdown: false });
    if (this.shuttingDown) return Promise.resolve({ item: undefined, shutdown: true });
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The worker finished `item`; if it was re-added meanwhile it goes back into the FIFO. */
  done(item: T): void {
    this.metrics?.done(item);
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
    if (this.processing.size === 0) this.endDrain();
  }

  /**
   * Stops accepting adds; blocked and future `get`s see shutdown once the FIFO is empty. Ends a
   * `shutDownWithDrain` still waiting, as client-go's ShutDown does: the way to stop waiting.
   */
  shutDown(): void {
    this.shuttingDown = true;
    this.endDrain();
    if (this.unfinishedTimer) clearInterval(this.unfinishedTimer);
    // Queued items still go to waiting workers; the rest of the waiters see shutdown.
    this.serveWaiters();
    const waiters = this.waiters.splice(0);
    for (const w of waiters) w({ item: undefined, shutdown: true });
  }

  /**
   * As `shutDown`, then resolves when no item is being processed any more (items re-queued by
   * `done` are not waited for), or at a later `shutDown`.
   */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Whether a worker currently holds `item` (for diagnostics and tests). */
  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  private endDrain(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private push(item: T): void {
    this.fifo.push(item);
    if (this.waiters.length > 0 && !this.serveScheduled) {
      this.serveScheduled = true;
      queueMicrotask(this.serveWaiters);
    }
  }

  /**
   * Hands ready items to blocked workers. Deferred to a microtask, like client-go's Signal: until
   * the worker wakes the item is still queued and dirty, so `len()` right after an add counts it
   * and a second add merges as "dirty".
   */
  private readonly serveWaiters = (): void => {
    this.serveScheduled = false;
    while (this.waiters.length > 0 && this.len() > 0) {
      const waiter = this.waiters.shift() as (r: GetResult<T>) => void;
      waiter({ item: this.take(), shutdown: false });
    }
  };

  private take(): T {
    const item = this.fifo[this.head] as T;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.fifo.length) {
      this.fifo = this.fifo.slice(this.head);
      this.head = 0;
    }
    this.processing.add(item);
    this.dirty.delete(item);
    this.metrics?.get(item);
    return item;
  }
}
