/**
 * A delaying queue that retries failed items with a rate limiter (client-go
 * rate_limiting_queue.go).
 *
 * Invariants (tested in rate-limiting-queue.test.ts):
 * - `addRateLimited(item)` = `addAfter(item, limiter.when(item))` and returns that delay.
 * - `forget(item)` only clears the limiter's record; the worker must still call `done`.
 * - `numRequeues(item)` is the limiter's count for `item`.
 * - Default limiter: sample-controller's (5 ms → 1000 s exponential, 50 qps / burst 300).
 */
import { DelayingQueue, realClock, type Clock, type OnAdded } from "./delaying-queue.ts";
import type { QueueOptions } from "./queue.ts";
import type { RateLimiter } from "./rate-limiters/rate-limiter.ts";
import { sampleControllerRateLimiter } from "./rate-limiters/sample-controller.ts";

export interface RateLimitingQueueOptions<T> extends QueueOptions {
  rateLimiter?: RateLimiter<T>;
  clock?: Clock;
}

export class RateLimitingQueue<T> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(opts: RateLimitingQueueOptions<T> = {}) {
    const clock = opts.clock ?? realClock;
    super(opts, clock);
    this.rateLimiter = opts.rateLimiter ?? sampleControllerRateLimiter<T>(clock);
  }

  /** Schedules a retry of `item` after the limiter's delay; returns the delay in ms. */
  addRateLimited(item: T, onAdded?: OnAdded): number {
    const delay = this.rateLimiter.when(item);
    this.addAfter(item, delay, onAdded);
    return delay;
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
