/**
 * client-go's `TypedRateLimiter`: decides how long an item waits before it is retried.
 *
 * Invariants every implementation keeps:
 * - `when(item)` records one more failure of `item` (it is not a pure query) and returns the
 *   delay in milliseconds, >= 0.
 * - `numRequeues(item)` is how many failures are on record for `item`.
 * - `forget(item)` clears that record; the next `when` starts from the first delay again.
 */
export interface RateLimiter<T> {
  when(item: T): number;
  numRequeues(item: T): number;
  forget(item: T): void;
}
