/**
 * A fixed-capacity ring of the newest events, indexed by seq, held as their trace-file lines.
 *
 * Invariants: events are appended in strictly increasing, gap-free seq order; the ring holds
 * exactly the events with seq in [firstSeq, lastSeq] (empty when lastSeq < firstSeq); when full,
 * appending evicts the oldest. Memory is bounded by `capacity` events whatever the rate. Text,
 * not objects: it is what the recording and every client's batches need, serialized once, and
 * it costs a fraction of the objects' memory; the rare reader of objects decodes.
 */
import { decodeEventLine, type TraceEvent } from "@loopscope/trace";

export class EventRing {
  private readonly texts: (string | undefined)[];
  private count = 0;
  private last = 0;

  /**
   * `capacity` Infinity: keep everything (replay holds the whole file). `after`: the seq before
   * the first one this ring will hold (a run continuing a recording).
   */
  constructor(
    readonly capacity: number,
    after = 0,
  ) {
    this.last = after;
    if (capacity !== Infinity && (!Number.isInteger(capacity) || capacity < 1)) {
      throw new Error("ring capacity must be ≥ 1");
    }
    this.texts = capacity === Infinity ? [] : new Array<string | undefined>(capacity);
  }

  /** seq of the oldest event held; lastSeq + 1 when empty. */
  get firstSeq(): number {
    return this.last - this.count + 1;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** `line` must be encodeEvent of the event numbered `seq`. */
  append(seq: number, line: string): void {
    if (this.count > 0 && seq !== this.last + 1) {
      throw new Error(`ring: seq ${seq} does not follow ${this.last}`);
    }
    this.texts[seq % this.capacity] = line;
    this.last = seq;
    if (this.count < this.capacity) this.count++;
  }

  /** Whether every seq in [from, to] is held (an empty range always is). */
  holds(from: number, to: number): boolean {
    return to < from || (from >= this.firstSeq && to <= this.last);
  }

  /** Lines ("\n" included) of the events with seq in [from, to] ∩ held range, in order. */
  lines(from: number, to: number): string[] {
    const lo = Math.max(from, this.firstSeq);
    const hi = Math.min(to, this.last);
    const out: string[] = [];
    for (let s = lo; s <= hi; s++) out.push(this.texts[s % this.capacity] as string);
    return out;
  }

  /** The same events as objects. */
  slice(from: number, to: number): TraceEvent[] {
    return this.lines(from, to).map((l) => decodeEventLine(l) as TraceEvent);
  }
}
