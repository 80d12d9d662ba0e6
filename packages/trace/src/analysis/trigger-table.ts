/**
 * The triggers of an analysis (its keys' enqueues) as one table. A trigger is a row, numbered in
 * the order its enqueue arrived over all keys; rows are chained into lists, one per pass: a key
 * gathers the triggers that arrive between its passes into a list (KeyState.pendingFirst …), and
 * the pass that opens next takes the list over whole (its first row and count in its PassTable
 * row). `PassTable` builds `Trigger` objects from a list only when a Pass is asked for.
 *
 * Why a table: a trace of a million events has some 200k triggers, and as objects each was a
 * Trigger in a one-item array, both kept for the life of the analysis — two young objects per
 * enqueue that the collector copied, on memory new to the process. Here a trigger is five
 * doubles side by side.
 *
 * Invariants:
 * - Rows are never removed, reordered or changed, except that `link` gives the last row of a list
 *   its next (a list is only ever extended at its end, and only while its key gathers it), and
 *   `settleAsEcho` corrects the cause of a trigger still in its key's gathering list.
 * - A row is in at most one list; `next` is -1 at the end of a list.
 * - Seqs are any safe integers (a JSONL trace keeps its own), so they are doubles; an absent one
 *   is NaN in the row and absent from the Trigger built from it.
 */
import type { PassCause, Trigger } from "./model.ts";
import { CAUSE_CODE, PASS_CAUSES } from "./model.ts";
import { RowChunks } from "./row-chunks.ts";

/** Slots of a row. */
const ENQUEUE_SEQ = 0;
const WATCH_SEQ = 1;
const WRITE_SEQ = 2;
/** The cause's code (see CAUSE_CODE) times 2, plus 1 when inferred. */
const CODE = 3;
/** The next row of the list, or -1. */
const NEXT = 4;
const WIDTH = 5;

export class TriggerTable {
  private readonly rows = new RowChunks(WIDTH);

  /** Rows so far. */
  get size(): number {
    return this.rows.size;
  }

  /** Adds a trigger that ends a list (it has no next yet); returns its row. */
  add(
    enqueueSeq: number,
    watchSeq: number | undefined,
    writeSeq: number | undefined,
    cause: PassCause,
    inferred: boolean,
  ): number {
    const row = this.rows.add();
    const n = this.rows.nums(row);
    const o = this.rows.at(row);
    n[o + ENQUEUE_SEQ] = enqueueSeq;
    n[o + WATCH_SEQ] = watchSeq ?? NaN;
    n[o + WRITE_SEQ] = writeSeq ?? NaN;
    n[o + CODE] = CAUSE_CODE[cause] * 2 + (inferred ? 1 : 0);
    n[o + NEXT] = -1;
    return row;
  }

  /** Makes `row` the next of `last`, which ends its list (and `row` ends it now). */
  link(last: number, row: number): void {
    this.rows.nums(last)[this.rows.at(last) + NEXT] = row;
  }

  /** The row after `row` in its list, or -1. */
  next(row: number): number {
    return this.rows.nums(row)[this.rows.at(row) + NEXT];
  }
  cause(row: number): PassCause {
    return PASS_CAUSES[this.rows.nums(row)[this.rows.at(row) + CODE] >> 1];
  }
  inferred(row: number): boolean {
    return (this.rows.nums(row)[this.rows.at(row) + CODE] & 1) !== 0;
  }
  /** The seq of the trigger's watch event, or undefined. */
  watchSeq(row: number): number | undefined {
    const seq = this.rows.nums(row)[this.rows.at(row) + WATCH_SEQ];
    return seq === seq ? seq : undefined;
  }

  /** The trigger's watch event is the echo of our write `writeSeq` (known exactly, by rv). */
  settleAsEcho(row: number, writeSeq: number): void {
    const n = this.rows.nums(row);
    const o = this.rows.at(row);
    n[o + WRITE_SEQ] = writeSeq;
    n[o + CODE] = CAUSE_CODE.self * 2;
  }

  /**
   * The `count` triggers of the list from `first`, as new objects. Each is built whole, in one
   * literal per shape (a property added afterwards would cost it a second allocation), with only
   * the seqs it has — as the Analyzer built them when it kept them as objects.
   */
  list(first: number, count: number): Trigger[] {
    const out = new Array<Trigger>(count);
    let row = first;
    for (let i = 0; i < count; i++) {
      const n = this.rows.nums(row);
      const o = this.rows.at(row);
      const enqueueSeq = n[o + ENQUEUE_SEQ];
      const watchSeq = n[o + WATCH_SEQ];
      const writeSeq = n[o + WRITE_SEQ];
      const cause = PASS_CAUSES[n[o + CODE] >> 1];
      const inferred = (n[o + CODE] & 1) !== 0;
      if (watchSeq !== watchSeq) {
        out[i] =
          writeSeq !== writeSeq
            ? { enqueueSeq, cause, inferred }
            : { enqueueSeq, writeSeq, cause, inferred };
      } else {
        out[i] =
          writeSeq !== writeSeq
            ? { enqueueSeq, watchSeq, cause, inferred }
            : { enqueueSeq, watchSeq, cause, inferred, writeSeq };
      }
      row = n[o + NEXT];
    }
    return out;
  }
}
