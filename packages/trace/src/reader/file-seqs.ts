/**
 * Numbers a trace file's events, keeping the file's own seqs wherever they can be kept.
 *
 * Invariants:
 * - The seqs handed out strictly increase, from `firstSeq`.
 * - While the file's seqs increase they are kept as written, gaps included: a sound file reads
 *   back unchanged, and its causeSeqs need no translating.
 * - A file seq that does not increase (two recordings joined, a record written twice, a record
 *   with no seq among numbered ones) starts a run: it and the numbered records after it are
 *   shifted by one amount, so one bad record moves the records after it without breaking their
 *   order or spacing, and does not make each of them "go back" in turn.
 * - A causeSeq names the latest event the file gave that seq before it (the run holding it), the
 *   way it was written; once any run was shifted, one that names no event read is dropped rather
 *   than left pointing at whichever event now has that number.
 */
import type { TraceEvent } from "../event.ts";

export class FileSeqs {
  private next: number;
  /** Runs of increasing file seqs, oldest first, each with what is added to its seqs. */
  private readonly runs: SeqRun[] = [];
  private shifted = false;
  /** Whether the last `take` began a run that moved its record off the file's seq. */
  movedRun = false;

  constructor(firstSeq = 1) {
    this.next = firstSeq;
  }

  /**
   * Numbers `e`, read with the file's seq in `e.seq` when `hasSeq`: a moved record keeps the
   * file's in `extra.fileSeq`, and its causeSeq is followed (see class doc).
   */
  number(e: TraceEvent, hasSeq: boolean): void {
    const fileSeq = hasSeq ? e.seq : undefined;
    e.seq = this.take(fileSeq);
    if (fileSeq !== undefined && e.seq !== fileSeq) e.extra = { ...e.extra, fileSeq };
    if (e.stage === "enqueue" && e.causeSeq !== undefined) {
      const cause = this.cause(e.causeSeq);
      if (cause === undefined) delete e.causeSeq;
      else e.causeSeq = cause;
    }
  }

  /** The seq that the record the file numbered `fileSeq` (undefined: not numbered) gets. */
  take(fileSeq: number | undefined): number {
    this.movedRun = false;
    if (fileSeq === undefined) return this.next++;
    let run = this.runs[this.runs.length - 1];
    if (run === undefined || fileSeq + run.shift < this.next) {
      run = { first: fileSeq, last: fileSeq, shift: this.next - fileSeq };
      if (this.runs.length === 0 && run.shift < 0) run.shift = 0;
      if (run.shift !== 0) this.shifted = this.movedRun = true;
      this.runs.push(run);
    }
    run.last = fileSeq;
    const seq = fileSeq + run.shift;
    this.next = seq + 1;
    return seq;
  }

  /** Whether `take(fileSeq)` would keep the file's seq, and the file's seqs were never moved. */
  keeps(fileSeq: number): boolean {
    return !this.shifted && fileSeq >= this.next;
  }

  /** The seq, among those handed out, of the event the file's `causeSeq` names (see class doc). */
  cause(causeSeq: number): number | undefined {
    if (!this.shifted) return causeSeq;
    // Causes are recent, so the scan back ends within a run or two; in a file of nothing but
    // runs it gives up after MAX_RUNS_SCANNED rather than read the file quadratically.
    for (let i = this.runs.length - 1, n = 0; i >= 0 && n < MAX_RUNS_SCANNED; i--, n++) {
      const run = this.runs[i]!;
      if (causeSeq >= run.first && causeSeq <= run.last) return causeSeq + run.shift;
    }
    return undefined;
  }
}

interface SeqRun {
  first: number;
  last: number;
  shift: number;
}

const MAX_RUNS_SCANNED = 1024;
