/**
 * The controller's machinery as the trace lets us see it, event by event: which keys wait in the
 * workqueue (in order), which are parked because a worker holds them, which key each worker is
 * processing, and the last API call. Built by replaying the events; nothing here is guessed
 * beyond what the enqueue/dequeue/done events say.
 *
 * Invariants (the workqueue's, client-go util/workqueue): a key is at most once in `queue`; a
 * key held by a worker is never in `queue` — a new add while it is held parks it, and Done moves
 * a parked key back to the end of the queue.
 */
import type { TraceEvent, WriteEvent } from "../event.ts";

export interface MachineryState {
  /** seq of the event this state is after. */
  seq: number;
  /** Keys waiting, oldest first. */
  queue: string[];
  /** Keys added while a worker held them; they return to the queue at Done. */
  parked: string[];
  /** worker id → key in flight. */
  workers: Record<number, string>;
  /**
   * The latest write (API call) of the trace so far, until its key's next pass begins (a
   * dequeue of that key): a pass is shown with what it wrote, not with what the pass before did.
   */
  lastWrite?: Pick<WriteEvent, "seq" | "key" | "verb" | "target" | "code" | "reason">;
  /** The latest watch event's object, for the informer box. */
  lastWatch?: { seq: number; kind: string; event: string; name: string; rv?: string };
  /** Queue length as the controller reported it at the latest enqueue/dequeue, when it did. */
  reportedLen?: number;
}

/** Replays events into machinery states, one per event (same order as the input). */
export class MachineryReplay {
  private queue: string[] = [];
  private parked = new Set<string>();
  private workers = new Map<number, string>();
  private lastWrite: MachineryState["lastWrite"];
  private lastWatch: MachineryState["lastWatch"];
  private reportedLen: number | undefined;

  push(e: TraceEvent): MachineryState {
    switch (e.stage) {
      case "watch":
        this.lastWatch = { seq: e.seq, kind: e.kind, event: e.event, name: e.name, rv: e.rv };
        break;
      case "enqueue": {
        // An add while a worker holds the key parks it, whether it was the first such add
        // ("processing") or merged into one already parked ("dirty"). Only an add the log says
        // went into the queue (merged: false) says the worker is done with it (a lost `done`).
        const held = [...this.workers.values()].includes(e.key);
        if (e.merged === "processing" || (held && e.merged !== false)) this.parked.add(e.key);
        else if (!this.queue.includes(e.key)) this.queue.push(e.key);
        if (e.len !== undefined) this.reportedLen = e.len;
        break;
      }
      case "dequeue": {
        this.queue = this.queue.filter((k) => k !== e.key);
        // The key's new pass has written nothing yet: the API box must not show the last pass's.
        if (this.lastWrite?.key === e.key) this.lastWrite = undefined;
        const worker = e.worker ?? this.freeWorkerId();
        this.workers.set(worker, e.key);
        if (e.len !== undefined) this.reportedLen = e.len;
        break;
      }
      case "done": {
        for (const [w, k] of this.workers) {
          if (k === e.key && (e.worker === undefined || e.worker === w)) {
            this.workers.delete(w);
            break;
          }
        }
        if (this.parked.delete(e.key) && !this.queue.includes(e.key)) this.queue.push(e.key);
        break;
      }
      case "write":
        this.lastWrite = {
          seq: e.seq,
          key: e.key,
          verb: e.verb,
          target: e.target,
          code: e.code,
          reason: e.reason,
        };
        break;
      default:
        break;
    }
    return this.snapshot(e.seq);
  }

  private freeWorkerId(): number {
    let id = 1;
    while (this.workers.has(id)) id++;
    return id;
  }

  private snapshot(seq: number): MachineryState {
    const s: MachineryState = {
      seq,
      queue: [...this.queue],
      parked: [...this.parked],
      workers: Object.fromEntries(this.workers),
    };
    if (this.lastWrite) s.lastWrite = this.lastWrite;
    if (this.lastWatch) s.lastWatch = this.lastWatch;
    if (this.reportedLen !== undefined) s.reportedLen = this.reportedLen;
    return s;
  }
}

/** Machinery states for a whole list of events. */
export function machineryStates(events: readonly TraceEvent[]): MachineryState[] {
  const r = new MachineryReplay();
  return events.map((e) => r.push(e));
}
