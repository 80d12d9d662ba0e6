/**
 * Whether the heap is too full to go on holding a file's events. `replay` keeps every event of
 * its file in memory; past what the process may hold it died with V8's out-of-memory stack dump
 * and no word of why (a 20 MB gzip of 3 GB of log, after minutes). Checked as it reads, this lets
 * it stop with a reason instead.
 *
 * What counts is the heap left by the last full collection (garbage not yet collected would
 * refuse files that fit), read when V8 reports one; a heap that is nearly full however much of it
 * is garbage counts too, as V8 is about to give up on it.
 */
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";

/** Share of the heap limit that, held after a full collection, is too much to go on. */
const LIVE_SHARE = 0.75;
/** Share of the heap limit that is too much whatever it holds. */
const USED_SHARE = 0.9;
/**
 * The young generation's part of V8's `heap_size_limit` (three 16 MiB semi-spaces on 64-bit
 * Node 20: `--max-old-space-size=80` gives 128 MiB). Events live in the old generation, which
 * is what runs out: left in, a small heap never reached the shares above before it died.
 */
const YOUNG_BYTES = 48 * 2 ** 20;

/** The old generation's limit, the heap that `--max-old-space-size` sets. */
function oldLimit(): number {
  const limit = getHeapStatistics().heap_size_limit;
  return Math.max(limit / 2, limit - YOUNG_BYTES);
}

export interface HeapUse {
  usedMb: number;
  limitMb: number;
}

export class HeapGuard {
  #afterFullGc = 0;
  readonly #observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // A "gc" entry's detail says which collection it was (Node's GC entries carry one).
      const { kind } = ((entry as { detail?: unknown }).detail ?? {}) as { kind?: number };
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        this.#afterFullGc = getHeapStatistics().used_heap_size;
    }
  });

  constructor() {
    this.#observer.observe({ entryTypes: ["gc"] });
  }

  /** The heap's use when it is too full to hold more, else undefined. */
  full(): HeapUse | undefined {
    const used = getHeapStatistics().used_heap_size;
    const limit = oldLimit();
    if (this.#afterFullGc <= LIVE_SHARE * limit && used <= USED_SHARE * limit) return undefined;
    return { usedMb: Math.round(used / 2 ** 20), limitMb: Math.round(limit / 2 ** 20) };
  }

  stop(): void {
    this.#observer.disconnect();
  }
}
