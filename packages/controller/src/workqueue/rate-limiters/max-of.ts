/**
 * The worst of several limiters (client-go `TypedMaxOfRateLimiter`).
 *
 * Invariants: `when` asks **every** limiter (each records the failure / takes its token) and
 * returns the largest delay; `numRequeues` is the largest count; `forget` forgets in all.
 */
import type { RateLimiter } from "./rate-limiter.ts";

export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: ReadonlyArray<RateLimiter<T>>;

  constructor(...limiters: Array<RateLimiter<T>>) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }
}
