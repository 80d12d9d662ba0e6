/**
 * Per-item exponential back-off (client-go `TypedItemExponentialFailureRateLimiter`).
 *
 * Invariants: the n-th `when` for an item since its last `forget` (n counted from 0) returns
 * `min(baseMs * 2^n, maxMs)`; items are independent of each other.
 */
import type { RateLimiter } from "./rate-limiter.ts";

export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseMs: number,
    readonly maxMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseMs * Math.pow(2, exp);
    // 2^exp overflows to Infinity long before a number stops being finite; cap either way.
    return !Number.isFinite(backoff) || backoff > this.maxMs ? this.maxMs : backoff;
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }
}
