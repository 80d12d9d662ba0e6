/**
 * Where the lines of a plain file start, noted every so often as a reader reads it: (line number,
 * byte offset) pairs. With them any line can be read back from the file itself (LineFile) instead
 * of holding every log line as a string — at a million klog events, more than half of the
 * dashboard page's memory.
 *
 * Invariant: a mark (n, at) says line n starts at byte `at`; marks are taken in file order, so
 * both numbers only grow. Line 1 at byte 0 is implied.
 */
/**
 * Bytes between marks: reading a line back reads about this much of the file. Line readers take
 * their input in windows of this size anyway, so feeding them pieces of it costs nothing.
 */
export const MARK_EVERY = 64 * 1024;

export class LineMarks {
  private pairs: number[] = [];

  /**
   * Hands `chunk`, read at byte `at` of the file, to `read` in pieces of MARK_EVERY bytes, and
   * notes a mark after each; `lines()` is how many lines the reader has seen end so far.
   */
  feed(
    chunk: Uint8Array,
    at: number,
    read: (piece: Uint8Array) => void,
    lines: () => number,
  ): void {
    for (let i = 0; i < chunk.length; i += MARK_EVERY) {
      const piece = chunk.subarray(i, i + MARK_EVERY);
      read(piece);
      this.note(piece, at + i, lines());
    }
  }

  /**
   * `piece` was read at byte `at` of the file and `lines` lines had ended when it was read:
   * the line after its last "\n" is line `lines + 1`.
   */
  note(piece: Uint8Array, at: number, lines: number): void {
    const nl = piece.lastIndexOf(10);
    if (nl >= 0) this.pairs.push(lines + 1, at + nl + 1);
  }

  /** The marks noted since the last call, as [line, offset, line, offset, …]. */
  take(): Float64Array | undefined {
    if (this.pairs.length === 0) return undefined;
    const out = Float64Array.from(this.pairs);
    this.pairs = [];
    return out;
  }
}
