/**
 * client-go's EventSourceObjectSpamFilter (tools/record/events_cache.go): before an Event goes to
 * the API, a token bucket per source and involved object (and event type) lets a burst of 25
 * through, then one every 5 minutes. A controller that fails, or writes, every few milliseconds
 * (a hot loop's "Synced", a retried "ErrResourceExists") sends its first 25 and is quiet after:
 * `kubectl describe foo` counts 25 on a cluster, not thousands. The log line of each Event
 * ("Event occurred") is not filtered — on client-go it comes from another watcher of the
 * broadcaster.
 *
 * Invariants: a key's bucket holds at most BURST tokens and refills at QPS; an allowed Event takes
 * one; at most MAX_KEYS buckets are kept (the least recently used goes, as client-go's LRU).
 */
const BURST = 25;
const QPS = 1 / 300;
const MAX_KEYS = 4096;

interface Bucket {
  tokens: number;
  at: number;
}

export class EventSpamFilter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Whether an Event with this spam key may go to the API now; takes a token if so. */
  allow(key: string): boolean {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: BURST, at: t };
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
    b.tokens = Math.min(BURST, b.tokens + ((t - b.at) / 1000) * QPS);
    b.at = t;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
