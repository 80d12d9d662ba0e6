/**
 * The latest few resourceVersions a key saw one way (returned by its writes; delivered by watch
 * events no write explained yet), each with the seq of the event that had it. Bounded: older
 * entries are overwritten, which is what a ring of recent events should forget.
 *
 * A decimal rv (as the API server hands out) is kept as its number, so a lookup compares a few
 * numbers in one typed array instead of strings scattered over the heap (a cache miss each, on
 * every watch event); any other rv is kept as its string, with NOT_DECIMAL in its number slot.
 * One typed array holds the numbers (slots 0‥size-1) and the seqs (slots size‥2·size-1): a typed
 * array is an ArrayBuffer too, and a key's first event paid for each.
 */
import { NOT_DECIMAL, rvNumber } from "./rv-number.ts";

const EMPTY = -1;

export class RvRing {
  private readonly nums: Float64Array;
  private readonly strings: (string | undefined)[];
  private at = 0;

  constructor(private readonly size: number) {
    this.nums = new Float64Array(2 * size).fill(EMPTY, 0, size);
    this.strings = new Array<string | undefined>(size);
  }

  remember(rv: string, seq: number): void {
    const n = rvNumber(rv);
    this.nums[this.at] = n;
    this.strings[this.at] = n === NOT_DECIMAL ? rv : undefined;
    this.nums[this.size + this.at] = seq;
    this.at = (this.at + 1) % this.size;
  }

  /** The seq remembered with `rv` (the first such slot), if any. */
  find(rv: string): number | undefined {
    const i = this.slot(rv);
    return i < 0 ? undefined : this.nums[this.size + i];
  }

  /** Like `find` for an entry whose seq is above `after`, and forgets it: each is taken once. */
  take(rv: string, after: number): number | undefined {
    const i = this.slot(rv);
    if (i < 0 || !(this.nums[this.size + i] > after)) return undefined;
    this.nums[i] = EMPTY;
    this.strings[i] = undefined;
    return this.nums[this.size + i];
  }

  private slot(rv: string): number {
    const n = rvNumber(rv);
    const nums = this.nums;
    if (n !== NOT_DECIMAL) {
      for (let i = 0; i < this.size; i++) if (nums[i] === n) return i;
    } else {
      for (let i = 0; i < this.size; i++) if (this.strings[i] === rv) return i;
    }
    return -1;
  }
}
