/**
 * The passes of an analysis as one table. A pass is a row, numbered in the order passes opened
 * over all keys; a key's rows are a chain through PREVIOUS (see KeyState.rowsIn), and the
 * Analyzer hands out `Pass` objects built from them only when asked (`pass`, `fill`).
 *
 * Why a table: a trace of a million events has some 200k passes, and as objects each was a Pass
 * with boxed timestamps hanging off it — ~450 bytes and a handful of objects the collector traced
 * and copied, most of a big analysis's heap and an eighth of its time. Here a row's numbers are
 * 6 doubles and 18 int32s side by side in two typed arrays (the event that touches a pass touches
 * a few cache lines, not a few objects). Its triggers are a list in the TriggerTable, and its
 * writes and changing writes lists in a SeqLists arena: the row holds where each list starts (and
 * ends) and its length, and no object per list or item is kept. Its changed fields are one of the
 * few lists of a FieldLists, by number.
 *
 * Invariants:
 * - Rows are never removed or reordered; a row's numbers may change while its pass is open and,
 *   for its writes' effects, a little after.
 * - An absent value (no dequeue line, a pass still open) is NaN in the row and `undefined` in
 *   the Pass it becomes; an absent list is -1 (its first row) and count 0.
 * - A pass's triggers are fixed when it opens (or, once, when a late enqueue line is adopted);
 *   its writes grow while it is open, its changing writes whenever a write of it settles.
 * - The changing-write count (CHANGING) is the length of the changing writes' list, which keeps
 *   the order they were found changing in (not always the writes' own); the Pass's list is
 *   `undefined` until the first.
 * - The changed fields only grow, a name at a time (see FieldLists.with).
 */
import type { PassOutcome } from "../event.ts";
import type { Pass, PassCause } from "./model.ts";
import { CAUSE_CODE, PASS_CAUSES } from "./model.ts";
import { RowChunks } from "./row-chunks.ts";
import { SeqLists } from "./seq-lists.ts";
import { FieldLists } from "./field-lists.ts";
import { none } from "./short-list.ts";
import type { TriggerTable } from "./trigger-table.ts";

/**
 * Slots of a row: its doubles (times, seqs — any safe integer in a JSONL trace — and the worker,
 * NaN when absent) and its int32s (counts, codes, rows of other tables; -1 for none).
 */
const START = 0;
const END = 1;
const DEQUEUE_SEQ = 2;
const END_SEQ = 3;
const READ_SEQ = 4;
const WORKER = 5;
const F_WIDTH = 6;

const KEY_ID = 0;
const INDEX = 1;
const NUMBER = 2;
/** Changing writes: their count, and the length of their list. */
const CHANGING = 3;
const NOOP = 4;
const CONFLICTS = 5;
const RUN = 6;
const CHANGED_IN = 7;
const CAUSE = 8;
/** inferred (bit 0), fromMarkers (bit 1), outcome (bits 2–3: its index in OUTCOMES + 1, 0 = none). */
const FLAGS = 9;
/** First row of the triggers in the TriggerTable (-1: none), and their count. */
const TRIGGERS = 10;
const TRIGGER_COUNT = 11;
/** First and last row of the writes' seqs in the SeqLists (-1: none), and their count. */
const WRITES = 12;
const LAST_WRITE = 13;
const WRITE_COUNT = 14;
/** First and last row of the changing writes' seqs in the SeqLists (their count is CHANGING). */
const CHANGING_WRITES = 15;
const LAST_CHANGING_WRITE = 16;
/** The key's previous pass (-1: none): a key's rows are a chain, newest first. */
const PREVIOUS = 17;
/** The changed fields: a list of the FieldLists (0: none). */
const FIELDS = 18;
const I_WIDTH = 19;

const INFERRED = 1;
const FROM_MARKERS = 2;
const OUTCOMES: readonly PassOutcome[] = ["synced", "requeued", "dropped"];

const orUndefined = (x: number): number | undefined => (x === x ? x : undefined);

export class PassTable {
  private readonly rows = new RowChunks(F_WIDTH);
  /** The same rows' int32 slots (added in step with `rows`). */
  private readonly ints = new RowChunks(I_WIDTH, (n) => new Int32Array(n));
  /** The lists of fields the rows' writes changed (see FIELDS). */
  private readonly fields = new FieldLists();
  /** The passes' writes and changing writes. */
  private readonly seqs = new SeqLists();

  constructor(
    /** Where the passes' triggers are (the Analyzer adds them there, as enqueues arrive). */
    private readonly triggers: TriggerTable,
  ) {}

  /**
   * Adds a row for a pass that opens now, with the list of `triggerCount` triggers from
   * `firstTrigger` (-1: none), which it takes over; returns the row.
   */
  add(
    keyId: number,
    index: number,
    number: number,
    start: number,
    firstTrigger: number,
    triggerCount: number,
    cause: PassCause,
    inferred: boolean,
    dequeueSeq: number | undefined,
    worker: number | undefined,
    previous: number,
  ): number {
    const row = this.rows.add();
    this.ints.add();
    const o = this.rows.at(row);
    const n = this.rows.nums(row);
    n[o + START] = start;
    n[o + END] = NaN;
    n[o + DEQUEUE_SEQ] = dequeueSeq ?? NaN;
    n[o + END_SEQ] = NaN;
    n[o + READ_SEQ] = NaN;
    n[o + WORKER] = worker ?? NaN;
    const i = this.ints.nums(row);
    const j = this.ints.at(row);
    i[j + KEY_ID] = keyId;
    i[j + INDEX] = index;
    i[j + NUMBER] = number;
    // CHANGING, NOOP, CONFLICTS, RUN, CHANGED_IN and FIELDS start at 0, as a new chunk's slots do.
    i[j + CAUSE] = CAUSE_CODE[cause];
    i[j + FLAGS] = (inferred ? INFERRED : 0) | (dequeueSeq === undefined ? FROM_MARKERS : 0);
    i[j + TRIGGERS] = firstTrigger;
    i[j + TRIGGER_COUNT] = triggerCount;
    i[j + WRITES] = -1;
    i[j + LAST_WRITE] = -1;
    i[j + CHANGING_WRITES] = -1;
    i[j + LAST_CHANGING_WRITE] = -1;
    i[j + PREVIOUS] = previous;
    return row;
  }

  /** Rows so far. */
  get size(): number {
    return this.rows.size;
  }

  /** The doubles of the row's chunk; the row's slots start at `at(row)`. */
  private nums(row: number): Float64Array {
    return this.rows.nums(row);
  }

  private at(row: number): number {
    return this.rows.at(row);
  }

  /** The int32s of the row's chunk; the row's slots start at `intAt(row)`. */
  private int(row: number): Int32Array {
    return this.ints.nums(row);
  }

  private intAt(row: number): number {
    return this.ints.at(row);
  }

  /** The same key's previous pass, or -1. */
  previous(row: number): number {
    return this.int(row)[this.intAt(row) + PREVIOUS];
  }

  keyId(row: number): number {
    return this.int(row)[this.intAt(row) + KEY_ID];
  }
  /** 0-based index among its key's passes. */
  index(row: number): number {
    return this.int(row)[this.intAt(row) + INDEX];
  }
  start(row: number): number {
    return this.nums(row)[this.at(row) + START];
  }
  /** µs, or undefined while open. */
  end(row: number): number | undefined {
    return orUndefined(this.nums(row)[this.at(row) + END]);
  }
  setEnd(row: number, ts: number, seq: number | undefined): void {
    this.nums(row)[this.at(row) + END] = ts;
    if (seq !== undefined) this.nums(row)[this.at(row) + END_SEQ] = seq;
  }
  /** Sets the end to the start, unless an end is known. */
  endAtStartIfOpen(row: number): void {
    const n = this.nums(row);
    const o = this.at(row);
    if (n[o + END] !== n[o + END]) n[o + END] = n[o + START];
  }
  dequeueSeq(row: number): number | undefined {
    return orUndefined(this.nums(row)[this.at(row) + DEQUEUE_SEQ]);
  }
  /** The first read's seq is kept. */
  noteRead(row: number, seq: number): void {
    const n = this.nums(row);
    const o = this.at(row) + READ_SEQ;
    if (n[o] !== n[o]) n[o] = seq;
  }
  /** The first worker named is kept. */
  noteWorker(row: number, worker: number): void {
    const n = this.nums(row);
    const o = this.at(row) + WORKER;
    if (n[o] !== n[o]) n[o] = worker;
  }
  changingWrites(row: number): number {
    return this.int(row)[this.intAt(row) + CHANGING];
  }
  /** Counts the write `seq` of the pass as changing, after those found changing before it. */
  addChangingWrite(row: number, seq: number): void {
    const n = this.int(row);
    const o = this.intAt(row);
    const item = this.seqs.add(seq, n[o + LAST_CHANGING_WRITE]);
    if (n[o + CHANGING]++ === 0) n[o + CHANGING_WRITES] = item;
    n[o + LAST_CHANGING_WRITE] = item;
  }
  addNoopWrites(row: number, d: number): void {
    this.int(row)[this.intAt(row) + NOOP] += d;
  }
  conflicts(row: number): number {
    return this.int(row)[this.intAt(row) + CONFLICTS];
  }
  addConflict(row: number): void {
    this.int(row)[this.intAt(row) + CONFLICTS]++;
  }
  /** Length of the run of qualifying hot-loop passes ending at this one (0 = not one). */
  run(row: number): number {
    return this.int(row)[this.intAt(row) + RUN];
  }
  setRun(row: number, length: number): void {
    this.int(row)[this.intAt(row) + RUN] = length;
  }
  /** The change epoch in which the row was last listed as changed (see Analyzer.touch). */
  changedIn(row: number): number {
    return this.int(row)[this.intAt(row) + CHANGED_IN];
  }
  setChangedIn(row: number, epoch: number): void {
    this.int(row)[this.intAt(row) + CHANGED_IN] = epoch;
  }
  cause(row: number): PassCause {
    return PASS_CAUSES[this.int(row)[this.intAt(row) + CAUSE]];
  }
  inferred(row: number): boolean {
    return (this.int(row)[this.intAt(row) + FLAGS] & INFERRED) !== 0;
  }
  fromMarkers(row: number): boolean {
    return (this.int(row)[this.intAt(row) + FLAGS] & FROM_MARKERS) !== 0;
  }
  outcome(row: number): PassOutcome | undefined {
    const code = this.int(row)[this.intAt(row) + FLAGS] >> 2;
    return code === 0 ? undefined : OUTCOMES[code - 1];
  }
  setOutcome(row: number, outcome: PassOutcome): void {
    const n = this.int(row);
    const o = this.intAt(row) + FLAGS;
    n[o] = (n[o] & 3) | ((OUTCOMES.indexOf(outcome) + 1) << 2);
  }
  /**
   * A pass that changed nothing because its write conflicted, and was requeued (or dropped: the
   * controller was stopping).
   */
  isStumble(row: number): boolean {
    const outcome = this.outcome(row);
    return (
      this.changingWrites(row) === 0 &&
      this.conflicts(row) > 0 &&
      (outcome === "requeued" || outcome === "dropped")
    );
  }

  /**
   * Gives the pass the list of `count` triggers from `first` (a list no other pass has) and the
   * cause they make: an enqueue line that came late.
   */
  setTriggers(
    row: number,
    first: number,
    count: number,
    cause: PassCause,
    inferred: boolean,
  ): void {
    const n = this.int(row);
    const o = this.intAt(row);
    n[o + TRIGGERS] = first;
    n[o + TRIGGER_COUNT] = count;
    n[o + CAUSE] = CAUSE_CODE[cause];
    n[o + FLAGS] = (n[o + FLAGS] & ~INFERRED) | (inferred ? INFERRED : 0);
  }
  triggerCount(row: number): number {
    return this.int(row)[this.intAt(row) + TRIGGER_COUNT];
  }
  writeCount(row: number): number {
    return this.int(row)[this.intAt(row) + WRITE_COUNT];
  }
  /** seq of the pass's first write, if it wrote. */
  firstWriteSeq(row: number): number | undefined {
    const first = this.int(row)[this.intAt(row) + WRITES];
    return first >= 0 ? this.seqs.seq(first) : undefined;
  }
  /** Adds the write `seq` after the pass's others. */
  addWrite(row: number, seq: number): void {
    const n = this.int(row);
    const o = this.intAt(row);
    const item = this.seqs.add(seq, n[o + LAST_WRITE]);
    if (n[o + WRITE_COUNT]++ === 0) n[o + WRITES] = item;
    n[o + LAST_WRITE] = item;
  }
  changedFields(row: number): string[] {
    return this.fields.names(this.ints.nums(row)[this.ints.at(row) + FIELDS]);
  }
  /** Adds fields to those the row's writes changed (once: a name it has is not added again). */
  addChangedFields(row: number, names: readonly string[]): void {
    const i = this.ints.nums(row);
    const j = this.ints.at(row) + FIELDS;
    i[j] = this.fields.with(i[j], names);
  }

  /** The row as a Pass (a new object). */
  pass(row: number, key: string): Pass {
    const p = blankPass();
    this.fill(row, key, p);
    return p;
  }

  /**
   * Writes the row into `p`, every field in one order (so every Pass has one shape). Its lists
   * are new arrays (empty ones the shared empty list), so a Pass handed out earlier keeps its own.
   */
  fill(row: number, key: string, p: Pass): void {
    const n = this.nums(row);
    const o = this.at(row);
    const i = this.int(row);
    const j = this.intAt(row);
    const triggers = i[j + TRIGGER_COUNT];
    const writes = i[j + WRITE_COUNT];
    const changing = i[j + CHANGING];
    p.key = key;
    p.index = i[j + INDEX];
    p.number = i[j + NUMBER];
    p.start = n[o + START];
    p.triggers = triggers > 0 ? this.triggers.list(i[j + TRIGGERS], triggers) : none();
    p.cause = PASS_CAUSES[i[j + CAUSE]];
    p.inferred = (i[j + FLAGS] & INFERRED) !== 0;
    p.writeSeqs = writes > 0 ? this.seqs.list(i[j + WRITES], writes) : none();
    p.changingWrites = changing;
    p.noopWrites = i[j + NOOP];
    p.conflicts = i[j + CONFLICTS];
    p.loopRun = i[j + RUN];
    p.changedFields = this.changedFields(row);
    p.fromMarkers = (i[j + FLAGS] & FROM_MARKERS) !== 0;
    p.dequeueSeq = orUndefined(n[o + DEQUEUE_SEQ]);
    p.worker = orUndefined(n[o + WORKER]);
    p.readSeq = orUndefined(n[o + READ_SEQ]);
    p.changingWriteSeqs =
      changing > 0 ? this.seqs.list(i[j + CHANGING_WRITES], changing) : undefined;
    p.endSeq = orUndefined(n[o + END_SEQ]);
    p.end = orUndefined(n[o + END]);
    p.outcome = this.outcome(row);
  }
}

/**
 * A Pass with every field, in fill's order: an object literal gets room for all of them at once,
 * where one grown from `{}` field by field reallocated its out-of-object properties several times
 * (the analysis worker's largest source of garbage, posting the changed passes of each batch).
 */
function blankPass(): Pass {
  return {
    key: "",
    index: 0,
    number: 0,
    start: 0,
    triggers: none(),
    cause: "external",
    inferred: false,
    writeSeqs: none(),
    changingWrites: 0,
    noopWrites: 0,
    conflicts: 0,
    loopRun: 0,
    changedFields: none(),
    fromMarkers: false,
    dequeueSeq: undefined,
    worker: undefined,
    readSeq: undefined,
    changingWriteSeqs: undefined,
    endSeq: undefined,
    end: undefined,
    outcome: undefined,
  };
}
