/**
 * The one owner of a run's event stream: numbers events, keeps the newest in memory, records
 * them, and serves any range back.
 *
 * Invariants:
 * - `seq` starts at 1 and increases by exactly 1 per event, in `push` order (the stream's
 *   identity; clients resume by it);
 * - listeners are called synchronously after each event is numbered and held, so a listener
 *   that reads `lastSeq` or `range` sees the event;
 * - `range(from, to)` returns exactly the events with seq in [from, to] ∩ [1, lastSeq], from the
 *   ring when it still holds them, else from the recording; events older than the ring that the
 *   recording does not hold either (none recorded, a recording that is not a file to read back,
 *   or one that failed before them) are gone and `range` throws `RangeGoneError`.
 */
import { encodeEvent, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";
import { EventRing } from "./ring.ts";
import type { Recording } from "./recording.ts";

export class RangeGoneError extends Error {
  constructor(readonly oldestHeld: number) {
    super(`events before seq ${oldestHeld} are no longer held`);
  }
}

export interface TraceHubOptions {
  /** Events kept in memory. Replay uses Infinity-like sizes (the whole file). */
  ringCapacity?: number;
  recording?: Recording;
  /** Seq of the last event already in `recording` (a continued file): numbering goes on after. */
  afterSeq?: number;
}

export type HubListener = (e: TraceEvent) => void;

export class TraceHub {
  private readonly ring: EventRing;
  private readonly listeners = new Set<HubListener>();
  readonly recording: Recording | undefined;

  constructor(opts: TraceHubOptions = {}) {
    this.ring = new EventRing(opts.ringCapacity ?? 100_000, opts.afterSeq ?? 0);
    this.recording = opts.recording;
  }

  get lastSeq(): number {
    return this.ring.lastSeq;
  }

  /** Oldest seq `range` can still serve (without a gap up to the newest). */
  get oldestAvailable(): number {
    return this.fileHoldsUpTo() >= this.ring.firstSeq - 1 ? 1 : this.ring.firstSeq;
  }

  /** The last seq the recording can read back: all of them, or what a failed one saved. */
  private fileHoldsUpTo(): number {
    const r = this.recording;
    if (!r?.regularFile) return 0;
    return r.failure ? r.savedThrough : Infinity;
  }

  /** Numbers `e` (any seq it carries is replaced), holds and records it, tells listeners. */
  push(e: UnsequencedEvent | TraceEvent): TraceEvent {
    const event = { ...e, seq: this.ring.lastSeq + 1 } as TraceEvent;
    // Encoded once, as the trace file's line: what the recording, the WebSocket's batches and
    // GET /api/trace all send.
    const line = encodeEvent(event);
    this.ring.append(event.seq, line);
    this.recording?.append(event, line);
    for (const l of this.listeners) l(event);
    return event;
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * [from, to] as trace-file lines ("\n" included, packages/trace's `encodeEvent`), for the
   * WebSocket's batches and downloads: from memory as encoded by `push` when the ring holds them.
   */
  async rangeLines(from: number, to: number): Promise<string[]> {
    const lo = Math.max(1, from);
    const hi = Math.min(to, this.lastSeq);
    if (this.ring.holds(lo, hi)) return this.ring.lines(lo, hi);
    return (await this.range(lo, hi)).map(encodeEvent);
  }

  async range(from: number, to: number): Promise<TraceEvent[]> {
    const lo = Math.max(1, from);
    const hi = Math.min(to, this.lastSeq);
    if (hi < lo) return [];
    if (this.ring.holds(lo, hi)) return this.ring.slice(lo, hi);
    const recording = this.recording;
    const onDisk = Math.min(hi, this.fileHoldsUpTo());
    if (!recording || onDisk < lo) throw new RangeGoneError(this.ring.firstSeq);
    // What a failed recording lacks comes from memory, taken now: the ring may evict more while
    // the file is read.
    let tail: TraceEvent[] = [];
    if (onDisk < hi) {
      if (!this.ring.holds(onDisk + 1, hi)) throw new RangeGoneError(this.ring.firstSeq);
      tail = this.ring.slice(onDisk + 1, hi);
    }
    // The rest from disk, whole: the ring may evict more while the read is under way.
    const head = await recording.readRange(lo, onDisk);
    return tail.length > 0 ? head.concat(tail) : head;
  }

  /** Flushes and closes the recording; the hub keeps serving memory. */
  async close(): Promise<void> {
    this.listeners.clear();
    await this.recording?.close();
  }
}
