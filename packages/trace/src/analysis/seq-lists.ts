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
import { RowChunks } from "./row-chunks.ts";

/** Slots of a row. */
const SEQ = 0;
const NEXT = 1;
const WIDTH = 2;

export class SeqLists {
  private readonly rows = new RowChunks(WIDTH);

  /** Rows so far. */
  get size(): number {
    return this.rows.size;
  }

  /**
   * Adds `seq` at the end of the list whose last row is `last` (-1: starts a new list); returns
   * its row, the list's new last.
   */
  add(seq: number, last: number): number {
    const rows = this.rows;
    const row = rows.add();
    const n = rows.nums(row);
    n[rows.at(row) + SEQ] = seq;
    n[rows.at(row) + NEXT] = -1;
    if (last >= 0) rows.nums(last)[rows.at(last) + NEXT] = row;
    return row;
  }

  seq(row: number): number {
    return this.rows.nums(row)[this.rows.at(row) + SEQ];
  }

  /** The row after `row` in its list, or -1. */
  next(row: number): number {
    return this.rows.nums(row)[this.rows.at(row) + NEXT];
  }

  /** The `count` seqs of the list from `first`, in order, as a new array. */
  list(first: number, count: number): number[] {
    const out = new Array<number>(count);
    let row = first;
    for (let i = 0; i < count; i++) {
      const n = this.rows.nums(row);
      const o = this.rows.at(row);
      out[i] = n[o + SEQ];
      row = n[o + NEXT];
    }
    return out;
  }
}
