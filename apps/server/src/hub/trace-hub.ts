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
 *   ring when it still holds them, else from the recording; without a recording, events older
 *   than the ring are gone and `range` throws `RangeGoneError`.
 */
import type { TraceEvent, UnsequencedEvent } from "@loopscope/trace";
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
}

export type HubListener = (e: TraceEvent) => void;

export class TraceHub {
  private readonly ring: EventRing;
  private readonly listeners = new Set<HubListener>();
  readonly recording: Recording | undefined;

  constructor(opts: TraceHubOptions = {}) {
    this.ring = new EventRing(opts.ringCapacity ?? 100_000);
    this.recording = opts.recording;
  }

  get lastSeq(): number {
    return this.ring.lastSeq;
  }

  /** Oldest seq `range` can still serve. */
  get oldestAvailable(): number {
    return this.recording ? 1 : this.ring.firstSeq;
  }

  /** Numbers `e` (any seq it carries is replaced), holds and records it, tells listeners. */
  push(e: UnsequencedEvent | TraceEvent): TraceEvent {
    const event = { ...e, seq: this.ring.lastSeq + 1 } as TraceEvent;
    const json = JSON.stringify(event);
    this.ring.append(event, json);
    this.recording?.append(event, json);
    for (const l of this.listeners) l(event);
    return event;
  }

  subscribe(listener: HubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether [from, to] can be answered from memory without touching the disk. */
  inMemory(from: number, to: number): boolean {
    return this.ring.holds(from, Math.min(to, this.lastSeq));
  }

  /** Synchronous slice of what memory holds of [from, to]. */
  recent(from: number, to: number): TraceEvent[] {
    return this.ring.slice(from, to);
  }

  /** The same as `recent`, as each event's JSON text (JSON.stringify of the event). */
  recentJson(from: number, to: number): string[] {
    return this.ring.sliceJson(from, to);
  }

  async range(from: number, to: number): Promise<TraceEvent[]> {
    const lo = Math.max(1, from);
    const hi = Math.min(to, this.lastSeq);
    if (hi < lo) return [];
    if (this.ring.holds(lo, hi)) return this.ring.slice(lo, hi);
    if (!this.recording) throw new RangeGoneError(this.ring.firstSeq);
    // The whole range from disk: the ring may evict more while the read is under way.
    return this.recording.readRange(lo, hi);
  }

  /** Flushes and closes the recording; the hub keeps serving memory. */
  async close(): Promise<void> {
    this.listeners.clear();
    await this.recording?.close();
  }
}
