/**
 * Numbers the queue view draws, from the events and the analysis: queue depth over time, each
 * key's backoff steps (the rate limiter's delay after each failed pass), and for each pass the
 * time its key waited in the queue (first trigger → dequeue) against the time a worker worked on
 * it (dequeue → Done). Times are ms since the trace's first event.
 */
import type { Pass, TraceEvent } from "@loopscope/trace";

export interface DepthPoint {
  t: number;
  len: number;
}
export interface BackoffStep {
  t: number;
  delayMs: number;
  attempt: number;
}
export interface PassTiming {
  key: string;
  index: number;
  /** Its number within its Foo's life (see Pass.number). */
  number: number;
  cause: Pass["cause"];
  /** ms: when the first trigger was added, dequeue, Done. */
  queuedAt: number;
  start: number;
  end: number;
}

export interface QueueModel {
  t0: number;
  tEnd: number;
  depth: DepthPoint[];
  backoff: Map<string, BackoffStep[]>;
  passes: PassTiming[];
}

/** The time `passes` spent waiting in the queue, and with a worker. */
export function waitAndWork(passes: readonly PassTiming[]): { waitMs: number; workMs: number } {
  let waitMs = 0;
  let workMs = 0;
  for (const p of passes) {
    waitMs += p.start - p.queuedAt;
    workMs += p.end - p.start;
  }
  return { waitMs, workMs };
}

export function queueModel(
  events: readonly TraceEvent[],
  passesOf: (key: string) => readonly Pass[],
  keys: readonly string[],
): QueueModel {
  const t0 = events[0]?.ts ?? 0;
  const ms = (ts: number) => (ts - t0) / 1000;
  const depth: DepthPoint[] = [];
  const backoff = new Map<string, BackoffStep[]>();
  const tsBySeq = new Map<number, number>();
  // A synced pass resets the key's backoff (Forget): later failures start a new series.
  const series = new Map<string, string>();
  let n = 0;
  for (const e of events) {
    tsBySeq.set(e.seq, e.ts);
    if ((e.stage === "enqueue" || e.stage === "dequeue") && e.len !== undefined)
      depth.push({ t: ms(e.ts), len: e.len });
    if (e.stage !== "done") continue;
    const id = series.get(e.key) ?? e.key;
    if (e.outcome === "requeued" && e.delayMs !== undefined) {
      const list = backoff.get(id) ?? [];
      list.push({ t: ms(e.ts), delayMs: e.delayMs, attempt: list.length + 1 });
      backoff.set(id, list);
    } else if (e.outcome === "synced" && backoff.has(id)) {
      series.set(e.key, `${e.key} #${++n}`);
    }
  }
  const passes: PassTiming[] = [];
  for (const key of keys) {
    for (const p of passesOf(key)) {
      // Only passes within the events given (a Foo's latest life, not the session's whole past).
      if (p.end === undefined || p.start < t0) continue;
      const firstAdd = Math.min(
        ...p.triggers.map((t) => tsBySeq.get(t.enqueueSeq) ?? p.start),
        p.start,
      );
      const timing: PassTiming = {
        key,
        index: p.index,
        number: p.number,
        cause: p.cause,
        queuedAt: ms(firstAdd),
        start: ms(p.start),
        end: ms(p.end),
      };
      passes.push(timing);
    }
  }
  passes.sort((a, b) => a.start - b.start);
  const tEnd = Math.max(
    events.length ? ms(events[events.length - 1]!.ts) : 0,
    ...passes.map((p) => p.end),
    1,
  );
  return { t0, tEnd, depth, backoff, passes };
}
