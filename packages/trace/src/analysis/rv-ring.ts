/**
 * Rings of the latest few resourceVersions each key saw one way (returned by its writes;
 * delivered by watch events no write explained yet), each with the seq of the event that had it.
 * Bounded: a ring's older entries are overwritten, which is what a ring of recent events should
 * forget.
 *
 * Invariants:
 * - A decimal rv (as the API server hands out) is kept as its number, so a lookup compares a few
 *   numbers instead of strings scattered over the heap; any other rv is kept as its string, in a
 *   side table that only such rvs touch.
 * - All rings live side by side in one table of rows (see RowChunks): a ring is one row —
 *   its cursor, its numbers, their seqs. A key's ring is touched once per watch event or write,
 *   seldom twice in a row, so each touch is a cache miss; one row costs two or three lines, where
 *   an object per ring (with its typed array, buffer and string array) cost five.
 * - Equality is exact as strings: "0123" and "123" are different rvs.
 */
import { RowChunks } from "./row-chunks.ts";
import { NOT_DECIMAL, rvNumber } from "./rv-number.ts";

/**
 * A slot's stored value: 0 is empty (a new chunk is all zeros, so a new ring needs no filling),
 * STRING marks an rv kept in `strings`, and a decimal rv n is n + DECIMAL.
 */
const EMPTY = 0;
const STRING = 1;
const DECIMAL = 2;

/** Row layout: the cursor, then `size` stored values, then their `size` seqs. */
const CURSOR = 0;
const VALUES = 1;

export class RvRings {
  private readonly rows: RowChunks;
  /**
   * Per ring, a bound on the values it holds: none is above it (Infinity once an rv that is not a
   * decimal was stored). rvs grow, so the rv a lookup asks for is most often newer than all a
   * ring holds — in a generated 1M-event log, 71 % of lookups — and this small table, which stays
   * in cache, answers them without reading the ring's own lines. It only grows: a value
   * overwritten or taken leaves it high, which costs a scan, never a wrong answer.
   */
  private readonly bounds = new RowChunks(1);
  /** The rvs that are not canonical decimals, by ring × size + slot. */
  private readonly strings = new Map<number, string>();

  constructor(private readonly size: number) {
    this.rows = new RowChunks(1 + 2 * size);
  }

  /** A new, empty ring; its id. */
  add(): number {
    this.bounds.add();
    return this.rows.add();
  }

  remember(ring: number, rv: string, seq: number): void {
    const nums = this.rows.nums(ring);
    const o = this.rows.at(ring);
    const size = this.size;
    const at = nums[o + CURSOR];
    const i = o + VALUES + at;
    if (nums[i] === STRING) this.strings.delete(ring * size + at);
    const n = rvNumber(rv);
    const bounds = this.bounds.nums(ring);
    const b = this.bounds.at(ring);
    if (n === NOT_DECIMAL) {
      nums[i] = STRING;
      this.strings.set(ring * size + at, rv);
      bounds[b] = Infinity;
    } else {
      nums[i] = n + DECIMAL;
      if (n + DECIMAL > bounds[b]) bounds[b] = n + DECIMAL;
    }
    nums[i + size] = seq;
    nums[o + CURSOR] = at + 1 === size ? 0 : at + 1;
  }

  /** The seq remembered with `rv` in the ring (its first such slot), if any. */
  find(ring: number, rv: string): number | undefined {
    const i = this.slot(ring, rv);
    return i < 0 ? undefined : this.rows.nums(ring)[i + this.size];
  }

  /** Like `find` for an entry whose seq is above `after`, and forgets it: each is taken once. */
  take(ring: number, rv: string, after: number): number | undefined {
    const i = this.slot(ring, rv);
    if (i < 0) return undefined;
    const nums = this.rows.nums(ring);
    const seq = nums[i + this.size];
    if (!(seq > after)) return undefined;
    if (nums[i] === STRING)
      this.strings.delete(ring * this.size + (i - this.rows.at(ring) - VALUES));
    nums[i] = EMPTY;
    return seq;
  }

  /** Where in the ring's chunk `rv` is stored (its first slot), or -1. */
  private slot(ring: number, rv: string): number {
    const n = rvNumber(rv);
    if (n !== NOT_DECIMAL && n + DECIMAL > this.bounds.nums(ring)[this.bounds.at(ring)]) return -1;
    const nums = this.rows.nums(ring);
    const from = this.rows.at(ring) + VALUES;
    const to = from + this.size;
    if (n !== NOT_DECIMAL) {
      const v = n + DECIMAL;
      for (let i = from; i < to; i++) if (nums[i] === v) return i;
      return -1;
    }
    const base = ring * this.size - from;
    for (let i = from; i < to; i++)
      if (nums[i] === STRING && this.strings.get(base + i) === rv) return i;
    return -1;
  }
}
