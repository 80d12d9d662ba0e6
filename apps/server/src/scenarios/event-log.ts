/**
 * The run's event stream: numbers events as they arrive (seq from 1, the stream owner's job per
 * packages/trace's event contract), keeps them, and answers "is this key settled?".
 *
 * Invariant: `push` returns the seq it assigned, so the controller's enqueue events carry the
 * seq of their watch event in `causeSeq`.
 */
import type { TraceEvent, UnsequencedEvent } from "@loopscope/trace";

export class EventLog {
  readonly events: TraceEvent[] = [];
  private listeners: Array<(e: TraceEvent) => void> = [];
  private readonly lastByKey = new Map<string, number>();

  /** Use as the session's `onEvent`. */
  readonly push = (e: UnsequencedEvent): number => {
    const full = { ...e, seq: this.events.length + 1 } as TraceEvent;
    this.events.push(full);
    this.lastByKey.set(full.key, full.seq);
    for (const l of this.listeners) l(full);
    return full.seq;
  };

  subscribe(l: (e: TraceEvent) => void): () => void {
    this.listeners.push(l);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
    };
  }

  forKey(key: string): TraceEvent[] {
    return this.events.filter((e) => e.key === key);
  }

  /**
   * Quiescent by the spec's definition, checked on the raw events: the key's last pass ended
   * synced, made no changing write, and nothing but resyncs was enqueued after it.
   */
  isQuiescent(key: string): boolean {
    const evs = this.forKey(key);
    let lastDequeue = -1;
    for (let i = evs.length - 1; i >= 0; i--) {
      if (evs[i]?.stage === "dequeue") {
        lastDequeue = i;
        break;
      }
    }
    if (lastDequeue < 0) return false;
    const pass = evs.slice(lastDequeue);
    const done = pass.find((e) => e.stage === "done");
    if (!done || done.stage !== "done" || done.outcome !== "synced") return false;
    if (pass.some((e) => e.stage === "write" && e.changed === true)) return false;
    const after = pass.slice(pass.indexOf(done) + 1);
    return !after.some((e) => e.stage === "enqueue" && e.cause !== "resync");
  }
}
