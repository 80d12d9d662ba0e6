/**
 * An overall token bucket (client-go `TypedBucketRateLimiter` over golang.org/x/time/rate).
 *
 * Invariants:
 * - The bucket holds at most `burst` tokens and refills at `qps` tokens per second.
 * - Every `when` reserves one token, as `rate.Limiter.Reserve().Delay()` does: 0 while tokens
 *   remain; otherwise the bucket goes into debt and the delay is the time until that token
 *   exists. So delays grow by 1/qps per call once the burst is spent.
 * - It is not per item: `numRequeues` is always 0 and `forget` does nothing.
 */
import type { RateLimiter } from "./rate-limiter.ts";
import { realClock, type Clock } from "../delaying-queue.ts";

export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  numRequeues(_item: T): number {
    return 0;
  }

  forget(_item: T): void {}
}
