/**
 * Rows of numbers, `width` side by side, in chunks that never move: the storage of the analysis's
 * tables (PassTable, TriggerTable, SeqLists). A row is a number; its slots start at `at(row)` in
 * the typed array `nums(row)` — doubles, or int32s for a table's small integers (half the memory).
 *
 * Why chunks: memory new to the process costs a page fault per 4 KB on first touch (several µs on
 * a virtual machine), and a table that doubled and copied touched twice its size; a chunk is
 * allocated once and filled.
 */

/** Rows per chunk: 2^12. */
export const CHUNK_BITS = 12;
const IN_CHUNK = (1 << CHUNK_BITS) - 1;

type Numbers = Float64Array | Int32Array;

export class RowChunks<T extends Numbers = Float64Array> {
  /** Rows so far. */
  size = 0;
  private readonly chunks: T[] = [];

  constructor(
    private readonly width: number,
    private readonly make: (length: number) => T = (n) => new Float64Array(n) as T,
  ) {}

  /** Adds a row (its slots hold 0 until written); returns it. */
  add(): number {
    const row = this.size++;
    if ((row & IN_CHUNK) === 0) this.chunks.push(this.make((IN_CHUNK + 1) * this.width));
    return row;
  }

  /** The numbers of the row's chunk. */
  nums(row: number): T {
    return this.chunks[row >> CHUNK_BITS];
  }

  /** Where the row's slots start in `nums(row)`. */
  at(row: number): number {
    return (row & IN_CHUNK) * this.width;
  }
}
