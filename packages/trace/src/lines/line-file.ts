/**
 * The lines of a loaded file, read back from the file on demand: a reader that leaves a klog log's
 * lines in the file notes every so often where a line starts (LineMarks). Reading line n reads
 * from the last mark at or before it, about 64 KB, not the file.
 *
 * Invariants:
 * - `read` gives each line as the reader saw it: its bytes up to its "\n" (a "\r" before it
 *   dropped), decoded as UTF-8 with replacement characters, a byte-order mark dropped from line 1.
 *   A file the reader took for CR-ended (no "\n" in its first 64 KiB, and a "\r": see
 *   splitter.ts) has its lines ended by "\r", "\r\n" or "\n", as the reader split them.
 * - Marks arrive in file order while the file loads; a line past the last mark is still found
 *   (the read goes on until it ends), only further from a mark.
 */

/** How much of the file one read takes while looking for the end of a line. */
const STEP = 64 * 1024;
const NL = 10;
const CR = 13;

/** The end of the line from `start` in a CR-ended file: its "\r" or "\n"; -1 if not in `piece`. */
function crLineEnd(piece: Uint8Array, start: number): number {
  for (let i = start; i < piece.length; i++) if (piece[i] === CR || piece[i] === NL) return i;
  return -1;
}

/** A file's bytes, read at any offset (a Blob in the browser, a file handle in Node). */
export interface ByteSource {
  readonly size: number;
  /** Up to `length` bytes from byte `at` (fewer only at the end). */
  read(at: number, length: number): Promise<Uint8Array>;
}

export class LineFile {
  /** Mark i: line `lineAt[i]` starts at byte `byteAt[i]`. */
  private readonly lineAt: number[] = [1];
  private readonly byteAt: number[] = [0];
  /** The reader's decoding: a byte-order mark is the reader's to drop, only at the file's start. */
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /** Whether the file's lines end in "\r" (see the invariants), found once from its start. */
  private crEnded: Promise<boolean> | undefined;

  constructor(private readonly file: ByteSource) {}

  private crEnds(): Promise<boolean> {
    return (this.crEnded ??= this.file
      .read(0, STEP)
      .then((b) => b.indexOf(NL) < 0 && b.indexOf(CR) >= 0));
  }

  /** Takes marks as [line, offset, line, offset, …], later ones than any before. */
  addMarks(marks: Float64Array): void {
    for (let i = 0; i + 1 < marks.length; i += 2) {
      if (marks[i] <= this.lineAt[this.lineAt.length - 1]) continue;
      this.lineAt.push(marks[i]);
      this.byteAt.push(marks[i + 1]);
    }
  }

  /** The text of each line asked for (numbered from 1), by line number; a line past the end is left out. */
  async read(lines: Iterable<number>): Promise<Map<number, string>> {
    const wanted = [...new Set(lines)].filter((n) => n >= 1).sort((a, b) => a - b);
    const out = new Map<number, string>();
    // Lines after one mark are read in one pass from it.
    let i = 0;
    while (i < wanted.length) {
      const m = this.markBefore(wanted[i]);
      const next = m + 1 < this.lineAt.length ? this.lineAt[m + 1] : Infinity;
      let j = i;
      while (j < wanted.length && wanted[j] < next) j++;
      await this.readFrom(m, wanted.slice(i, j), out);
      i = j;
    }
    return out;
  }

  /** Index of the last mark at or before line n. */
  private markBefore(n: number): number {
    let lo = 0;
    let hi = this.lineAt.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineAt[mid] <= n) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Reads `wanted` (ascending, none before mark m's line) into `out`, from mark m on. */
  private async readFrom(m: number, wanted: number[], out: Map<number, string>): Promise<void> {
    let line = this.lineAt[m];
    let pos = this.byteAt[m];
    /** Bytes of the current line read so far, when it began in an earlier piece. */
    let partial: Uint8Array[] = [];
    let k = 0;
    const cr = await this.crEnds();
    /** CR-ended: the line before ended in "\r", so a "\n" first in this one is that end's. */
    let afterCr = cr && pos > 0 && (await this.file.read(pos - 1, 1))[0] === CR;
    while (k < wanted.length && pos < this.file.size) {
      const piece = await this.file.read(pos, STEP);
      if (piece.length === 0) break;
      let start = 0;
      for (;;) {
        if (afterCr && start < piece.length) {
          if (piece[start] === NL) start++;
          afterCr = false;
        }
        const nl = cr ? crLineEnd(piece, start) : piece.indexOf(NL, start);
        if (nl < 0) break;
        if (line === wanted[k]) {
          out.set(line, this.text(line, join(partial, piece.subarray(start, nl))));
          if (++k === wanted.length) return;
        }
        partial = [];
        line++;
        start = nl + 1;
        afterCr = cr && piece[nl] === CR;
      }
      if (line === wanted[k]) partial.push(piece.slice(start));
      pos += piece.length;
    }
    // The last line of a file need not end in "\n" (nor is an empty one a line: the reader's rule).
    if (k < wanted.length && line === wanted[k] && partial.length > 0) {
      const last = this.text(line, join(partial, new Uint8Array(0)));
      if (last !== "") out.set(line, last);
    }
  }

  private text(line: number, bytes: Uint8Array): string {
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    const s = this.decoder.decode(bytes.subarray(0, end));
    return line === 1 && s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
  }
}

function join(parts: Uint8Array[], last: Uint8Array): Uint8Array {
  if (parts.length === 0) return last;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, last.length));
  let at = 0;
  for (const p of [...parts, last]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
