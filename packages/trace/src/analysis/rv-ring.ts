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
const EMPTY = -1;
const NOT_DECIMAL = -2;

export class RvRing {
  private readonly nums: Float64Array;
  private readonly strings: (string | undefined)[];
  private at = 0;

  constructor(private readonly size: number) {
    this.nums = new Float64Array(2 * size).fill(EMPTY, 0, size);
    this.strings = new Array<string | undefined>(size);
  }

  remember(rv: string, seq: number): void {
    const n = decimal(rv);
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
    const n = decimal(rv);
    const nums = this.nums;
    if (n !== NOT_DECIMAL) {
      for (let i = 0; i < this.size; i++) if (nums[i] === n) return i;
    } else {
      for (let i = 0; i < this.size; i++) if (this.strings[i] === rv) return i;
    }
    return -1;
  }
}

/**
 * The number a canonical decimal rv spells ("1002"; no sign, no leading zero, at most 15 digits,
 * so exact as a double), else NOT_DECIMAL. Two rvs are equal exactly when both are canonical
 * with equal numbers, or both are not and equal as strings.
 */
function decimal(rv: string): number {
  const n = rv.length;
  if (n === 0 || n > 15 || (n > 1 && rv.charCodeAt(0) === 48)) return NOT_DECIMAL;
  let x = 0;
  for (let i = 0; i < n; i++) {
    const d = rv.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NOT_DECIMAL;
    x = x * 10 + d;
  }
  return x;
}
