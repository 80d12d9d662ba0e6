/**
 * Lists of seqs, all in one arena: a pass's writes and its changing writes. An item is a row of
 * two doubles, its seq and the row of the next item (-1 at the end of its list); whoever owns a
 * list keeps its first row, last row and count (PassTable, in the pass's row).
 *
 * Why an arena: as arrays, every pass kept one or two of its own, re-made at each item (see
 * short-list.ts) — young objects the collector copied and kept for the life of the analysis.
 * Here an item is 16 bytes in a typed array, and a list grows without copying.
 *
 * Invariants:
 * - Rows are never removed or reordered, and a row's seq never changes; only the last row of a
 *   list gets a next (when the list grows), so a list keeps the order its items were added in.
 * - Seqs are any safe integers (a JSONL trace keeps its own), hence doubles.
 */

/** Slots of a row. */
const SEQ = 0;
const NEXT = 1;
const WIDTH = 2;

/**
 * Rows per chunk. The arena grows a chunk at a time and never copies (see PassTable: memory new
 * to the process costs a page fault per 4 KB on first touch).
 */
const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/** Where the row's slots start in its chunk. */
const at = (row: number): number => (row & IN_CHUNK) * WIDTH;

export class SeqLists {
  /** Rows so far. */
  size = 0;
  private readonly chunks: Float64Array[] = [];

  /**
   * Adds `seq` at the end of the list whose last row is `last` (-1: starts a new list); returns
   * its row, the list's new last.
   */
  add(seq: number, last: number): number {
    const row = this.size++;
    if ((row & IN_CHUNK) === 0) this.chunks.push(new Float64Array(CHUNK * WIDTH));
    const n = this.chunks[row >> CHUNK_BITS];
    n[at(row) + SEQ] = seq;
    n[at(row) + NEXT] = -1;
    if (last >= 0) this.chunks[last >> CHUNK_BITS][at(last) + NEXT] = row;
    return row;
  }

  seq(row: number): number {
    return this.chunks[row >> CHUNK_BITS][at(row) + SEQ];
  }

  /** The row after `row` in its list, or -1. */
  next(row: number): number {
    return this.chunks[row >> CHUNK_BITS][at(row) + NEXT];
  }

  /** The `count` seqs of the list from `first`, in order, as a new array. */
  list(first: number, count: number): number[] {
    const out = new Array<number>(count);
    let row = first;
    for (let i = 0; i < count; i++) {
      const n = this.chunks[row >> CHUNK_BITS];
      const o = at(row);
      out[i] = n[o + SEQ];
      row = n[o + NEXT];
    }
    return out;
  }
}
