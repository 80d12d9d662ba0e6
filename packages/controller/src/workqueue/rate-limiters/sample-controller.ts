/**
 * The rate limiter sample-controller builds in NewController (controller.go 110–113): per-item
 * exponential 5 ms → 1000 s, overall token bucket 50 qps with burst 300. (client-go's
 * DefaultControllerRateLimiter uses 10 qps / 100; sample-controller deliberately does not.)
 */
import { BucketRateLimiter } from "./bucket.ts";
import { ItemExponentialFailureRateLimiter } from "./item-exponential-failure.ts";
import { MaxOfRateLimiter } from "./max-of.ts";
import type { RateLimiter } from "./rate-limiter.ts";
import type { Clock } from "../delaying-queue.ts";

export function sampleControllerRateLimiter<T>(clock?: Clock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    new BucketRateLimiter<T>(50, 300, clock),
  );
}
