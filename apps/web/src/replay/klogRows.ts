/**
 * The replay worker's row path for klog logs: a canonical STAGE line, once packages/trace's reader
 * has taken it apart (fastStageBytes), goes from its fields straight into a row of the batch — no
 * event object, and no walk over an event's fields to encode it. On a 1M-line log those two cost
 * more than reading the lines.
 *
 * Invariants:
 * - A line this path takes becomes exactly the row RowEncoder.add makes of the event the reader
 *   would have built: the same columns, key and detail ids. The detail text is built from the same
 *   members, in the same order (the stage's fields in the order the event holds them, then `src`).
 *   A test reads the same logs both ways and compares the batches.
 * - A value a column cannot hold exactly (an rv that is not a canonical decimal, a len or worker
 *   past u32) is declined: the line then becomes an event and takes the general path.
 */
import {
  fieldList,
  type LineContext,
  type StageFields,
  type StageRowTaker,
} from "@loopscope/trace";
import {
  ABSENT,
  decimal,
  detached,
  member,
  STAGE_CODE,
  type RowEncoder,
} from "../store/rowEncoder.ts";

/** Per stage code: the detail's members, in the order RowEncoder.add meets them in the event. */
const DETAIL_NAMES: readonly (readonly string[])[] = [
  ["kind", "event", "name", "ns", "src"],
  ["merged", "cause", "src"],
  ["src"],
  ["generation", "found", "src"],
  ["verb", "target", "code", "reason", "changed", "fields", "src"],
];
const MAX_MEMBERS = 7;

/** A detail built before: its member values (undefined: absent) and its id. */
interface Memo {
  values: unknown[];
  id: number;
}

/** Details remembered per key and stage (a key's writes alternate between a few). */
const MEMO_WAYS = 4;

/** A u32 column's value: ABSENT for undefined, -1 for what the column cannot hold. */
function u32(v: number | undefined): number {
  return v === undefined ? ABSENT : v < ABSENT ? v : -1;
}

export class KlogRows implements StageRowTaker {
  /** The current line's member values, in DETAIL_NAMES order. */
  private readonly values: unknown[] = new Array<unknown>(MAX_MEMBERS).fill(undefined);
  /** The latest details per (key id × 8 + stage) slot, most recently used first. */
  private readonly recent: Memo[][] = [];

  /**
   * `keepRaw`: keep each line's text beside its row (a log the page cannot read back at an
   * offset); `added`: called after each row, to post full batches.
   */
  constructor(
    private readonly encoder: RowEncoder,
    private readonly keepRaw: boolean,
    private readonly added: () => void,
  ) {}

  take(
    f: StageFields,
    at: LineContext,
    text: string,
    start: number,
    end: number,
    seq: number,
  ): boolean {
    const rv = f.rv === undefined ? NaN : decimal(f.rv);
    const oldRv = f.oldRv === undefined ? NaN : decimal(f.oldRv);
    const len = u32(f.len);
    const worker = u32(f.worker);
    if (rv === undefined || oldRv === undefined || len < 0 || worker < 0 || at.line >= ABSENT) {
      return false;
    }
    const stage = STAGE_CODE[f.stage];
    const v = this.values;
    let n: number;
    switch (f.stage) {
      case "watch":
        v[0] = f.kind;
        v[1] = f.event;
        v[2] = f.name;
        v[3] = f.ns;
        v[4] = at.src;
        n = 5;
        break;
      case "enqueue":
        v[0] = f.merged;
        v[1] = f.cause;
        v[2] = at.src;
        n = 3;
        break;
      case "dequeue":
        v[0] = at.src;
        n = 1;
        break;
      case "read":
        v[0] = f.generation;
        v[1] = f.found;
        v[2] = at.src;
        n = 3;
        break;
      case "write":
        v[0] = f.verb;
        v[1] = f.target;
        v[2] = f.code;
        v[3] = f.reason;
        v[4] = f.changed;
        v[5] = f.fields;
        v[6] = at.src;
        n = 7;
        break;
    }
    const key = this.encoder.keyId(f.key);
    const detail = this.detailId(key * 8 + stage, stage, n);
    this.encoder.addRow(seq, at.ts, stage, key, rv, oldRv, at.line, len, ABSENT, worker, detail);
    if (this.keepRaw) this.encoder.setRaw(text.slice(start, end));
    this.added();
    return true;
  }

  private detailId(slot: number, stage: number, n: number): number {
    // Grown one by one, never written past the end: a sparse array would turn into a dictionary.
    while (this.recent.length <= slot) this.recent.push([]);
    const memos = this.recent[slot];
    const v = this.values;
    for (let m = 0; m < memos.length; m++) {
      const memo = memos[m];
      let i = 0;
      while (i < n && memo.values[i] === v[i]) i++;
      if (i < n) continue;
      if (m > 0) {
        memos[m] = memos[m - 1];
        memos[m - 1] = memo;
      }
      return memo.id;
    }
    const names = DETAIL_NAMES[stage];
    const members: string[] = [];
    for (let i = 0; i < n; i++) {
      const value = v[i];
      if (value === undefined) continue;
      // `fields` is the line's comma list; the event holds its parts.
      members.push(member(names[i], names[i] === "fields" ? fieldList(value as string) : value));
    }
    const id = this.encoder.detailId(`{${members.join(",")}}`);
    if (memos.length >= MEMO_WAYS) memos.pop();
    // Keys, names, namespaces, targets and sources are the reader's own strings, compared by
    // identity; a reason or a fields list is cut from the line and would keep its whole chunk alive.
    const values = v.slice(0, n);
    if (stage === STAGE_CODE.write) {
      values[3] = detached(values[3]);
      values[5] = detached(values[5]);
    }
    memos.unshift({ values, id });
    return id;
  }
}
