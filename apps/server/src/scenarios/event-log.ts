/**
 * The run's event stream: numbers events as they arrive (seq from 1, the stream owner's job per
 * packages/trace's event contract), keeps them, and answers "is this key settled?".
 *
 * Invariant: `push` returns the seq it assigned, so the controller's enqueue events carry the
 * seq of their watch event in `causeSeq`.
 */
import { Analyzer, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";

export class EventLog {
  readonly events: TraceEvent[] = [];
  /** packages/trace's incremental analysis over the same events. */
  readonly analyzer = new Analyzer();
  private listeners: Array<(e: TraceEvent) => void> = [];
  private readonly lastByKey = new Map<string, number>();

  /** Use as the session's `onEvent`. */
  readonly push = (e: UnsequencedEvent): number => {
    const full = { ...e, seq: this.events.length + 1 } as TraceEvent;
    this.events.push(full);
    this.analyzer.push(full);
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

  /** Quiescent per packages/trace's analysis (docs/stages.md §3). */
  isQuiescent(key: string): boolean {
    return this.analyzer.summary(key)?.quiescent === true;
  }
}
