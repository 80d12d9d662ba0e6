/**
 * A fixed-capacity ring of the newest events, indexed by seq.
 *
 * Invariants: events are appended in strictly increasing, gap-free seq order; the ring holds
 * exactly the events with seq in [firstSeq, lastSeq] (empty when lastSeq < firstSeq); when full,
 * appending evicts the oldest. Memory is bounded by `capacity` events whatever the rate.
 * Each event is held with its JSON text, computed once, so the recording and every client's
 * batches reuse it instead of serializing the event again.
 */
import type { TraceEvent } from "@loopscope/trace";

export class EventRing {
  private readonly slots: (TraceEvent | undefined)[];
  private readonly texts: (string | undefined)[];
  private count = 0;
  private last = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error("ring capacity must be ≥ 1");
    this.slots = new Array<TraceEvent | undefined>(capacity);
    this.texts = new Array<string | undefined>(capacity);
  }

  /** seq of the oldest event held; lastSeq + 1 when empty. */
  get firstSeq(): number {
    return this.last - this.count + 1;
  }

  get lastSeq(): number {
    return this.last;
  }

  /** `json` must be JSON.stringify(e). */
  append(e: TraceEvent, json: string): void {
    if (this.count > 0 && e.seq !== this.last + 1) {
      throw new Error(`ring: seq ${e.seq} does not follow ${this.last}`);
    }
    this.slots[e.seq % this.capacity] = e;
    this.texts[e.seq % this.capacity] = json;
    this.last = e.seq;
    if (this.count < this.capacity) this.count++;
  }

  /** Whether every seq in [from, to] is held (an empty range always is). */
  holds(from: number, to: number): boolean {
    return to < from || (from >= this.firstSeq && to <= this.last);
  }

  /** Events with seq in [from, to] ∩ held range, in order. */
  slice(from: number, to: number): TraceEvent[] {
    return this.collect(this.slots, from, to) as TraceEvent[];
  }

  /** The JSON texts of slice(from, to). */
  sliceJson(from: number, to: number): string[] {
    return this.collect(this.texts, from, to) as string[];
  }

  private collect<T>(from_: (T | undefined)[], from: number, to: number): (T | undefined)[] {
    const lo = Math.max(from, this.firstSeq);
    const hi = Math.min(to, this.last);
    const out: (T | undefined)[] = [];
    for (let s = lo; s <= hi; s++) out.push(from_[s % this.capacity]);
    return out;
  }
}
