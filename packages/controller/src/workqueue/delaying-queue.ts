/**
 * A work queue whose items can be added after a delay (client-go delaying_queue.go).
 *
 * Invariants (tested in delaying-queue.test.ts):
 * - `addAfter(item, d)` with `d <= 0` is an immediate `add`.
 * - An item waits at most once: adding it again while it waits keeps the **earlier** ready time
 *   (and that add's `onAdded` callback).
 * - When its time comes the item is `add`ed, subject to the usual dirty/processing merging; the
 *   `onAdded` callback receives how the add landed.
 * - Waiting items are not counted by `len()`. After shutdown, `addAfter` is ignored and pending
 *   timers are cancelled.
 * - Every `addAfter` before shutdown counts a retry in the metrics, as client-go's AddAfter does.
 * - One timer at a time, set for the earliest ready time (a min-heap), so 10 000 waiting items cost
 *   one timer, not 10 000.
 */
import { Queue, type AddResult, type QueueOptions } from "./queue.ts";

export type OnAdded = (result: AddResult) => void;

interface Waiting<T> {
  item: T;
  readyAt: number;
  onAdded: OnAdded | undefined;
  /** Position in the heap, kept current for O(log n) decrease-key. */
  index: number;
}

export interface Clock {
  now(): number;
}

export const realClock: Clock = { now: () => performance.now() };

export class DelayingQueue<T> extends Queue<T> {
  private readonly heap: Array<Waiting<T>> = [];
  private readonly waiting = new Map<T, Waiting<T>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(
    opts: QueueOptions = {},
    protected readonly clock: Clock = realClock,
  ) {
    super(opts);
  }

  /** Adds `item` once `delayMs` has passed (at once when `delayMs <= 0`). */
  addAfter(item: T, delayMs: number, onAdded?: OnAdded): void {
    if (this.isShuttingDown()) return;
    this.metrics?.retries.inc();
    if (delayMs <= 0) {
      const r = this.add(item);
      onAdded?.(r);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const existing = this.waiting.get(item);
    if (existing) {
      if (readyAt < existing.readyAt) {
        existing.readyAt = readyAt;
        existing.onAdded = onAdded;
        this.siftUp(existing.index);
      }
    } else {
      const w: Waiting<T> = { item, readyAt, onAdded, index: this.heap.length };
      this.heap.push(w);
      this.waiting.set(item, w);
      this.siftUp(w.index);
    }
    this.arm();
  }

  /** Items waiting for their delay (for diagnostics and tests). */
  waitingLen(): number {
    return this.heap.length;
  }

  override shutDown(): void {
    super.shutDown();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.heap.length = 0;
    this.waiting.clear();
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first) return;
    if (this.timer && this.timerAt <= first.readyAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = first.readyAt;
    this.timer = setTimeout(() => this.fire(), Math.max(0, first.readyAt - this.clock.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now();
    while (this.heap.length > 0 && (this.heap[0] as Waiting<T>).readyAt <= now) {
      const w = this.pop();
      this.waiting.delete(w.item);
      const r = this.add(w.item);
      w.onAdded?.(r);
    }
    this.arm();
  }

  private pop(): Waiting<T> {
    const top = this.heap[0] as Waiting<T>;
    const last = this.heap.pop() as Waiting<T>;
    if (last !== top) {
      last.index = 0;
      this.heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftUp(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as Waiting<T>).readyAt <= (h[i] as Waiting<T>).readyAt) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && (h[l] as Waiting<T>).readyAt < (h[m] as Waiting<T>).readyAt) m = l;
      if (r < h.length && (h[r] as Waiting<T>).readyAt < (h[m] as Waiting<T>).readyAt) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const h = this.heap;
    const wa = h[a] as Waiting<T>;
    const wb = h[b] as Waiting<T>;
    h[a] = wb;
    h[b] = wa;
    wa.index = b;
    wb.index = a;
  }
}
