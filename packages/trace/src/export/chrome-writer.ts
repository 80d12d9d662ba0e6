/**
 * Writes a trace as Chrome Trace Event JSON for Perfetto (ui.perfetto.dev) and chrome://tracing,
 * streaming: events go out as they are pushed, each pass as soon as it closes.
 *
 * Layout:
 * - one process per Foo (`pid` 2, 3, … in order of first appearance; named "Foo ns/name"), and
 *   process 1 "workqueue" holding the queue-length counter (`C`). A Foo deleted and created again
 *   under its name is another object (see PassStream): another process, "Foo ns/name (life 2)";
 * - in each Foo process one thread per lane: "passes", watch, enqueue, dequeue, read, write,
 *   notes. `tid = pid * 8 + lane`, so thread ids never repeat across processes;
 * - every event of the trace is exactly one instant (`ph: "i"`, `s: "t"`) on its lane whose
 *   `args` is the event itself as in our JSONL (cat "stage", "done" or "note") — that is what a
 *   reader reads back, so a round trip keeps every event, its fields and its order;
 * - each pass is a complete slice (`ph: "X"`) on the passes lane from dequeue to done;
 * - each trigger of a pass is an arrow (flow v2) along its causal chain — the write whose echo it
 *   was (or the failed pass it retries), the watch event, the enqueue — ending on the pass.
 *   Perfetto binds v2 flows only to X/B slices, and a slice holds one bind_id, so every point of
 *   a chain is its own zero-length X slice (cat "flow") at the event's time on the event's lane.
 *
 * Output: the JSON Object Format — `otherData`, then `traceEvents` — one trace event per line
 * (so it can be read back line by line), each starting with `ph` and `ts`. `otherData.header` is
 * the header of the JSONL trace the events came from (its `created`, `scenario`, `cluster`, …),
 * as its line 1 holds it: the format's place for metadata, which viewers show or ignore, and the
 * reader gives it back. Memory: the Foo→pid table plus a bounded map of recent linkable events.
 */
import { STAGES, type TraceEvent } from "../event.ts";
import type { Pass, Trigger } from "../analysis/model.ts";
import { eventRecord, headerRecord, type TraceHeader } from "../jsonl/format.ts";
import type { ChromeEvent } from "./chrome-format.ts";
import { BoundedMap } from "./bounded-map.ts";

export const CHROME_LANES = ["passes", ...STAGES, "notes"] as const;
export type ChromeLane = (typeof CHROME_LANES)[number];

/** The `otherData.format` tag our writer puts in the file (the reader does not require it). */
export const CHROME_FORMAT_TAG = "loopscope-chrome/1";

const QUEUE_PID = 1;
const FIRST_FOO_PID = 2;
/** Linkable events remembered for arrows still to come (writes awaiting their echo, …). */
const ANCHOR_CAP = 1 << 16;

export function laneTid(pid: number, lane: ChromeLane): number {
  return pid * 8 + CHROME_LANES.indexOf(lane) + 1;
}

/** A Foo life's process: its pid, and what its arrows and open passes need. */
interface FooProcess {
  pid: number;
  /** Seqs of the latest `done requeued` events (sources of retry arrows). */
  requeues: number[];
  /** µs of its latest event (where an open pass ends). */
  lastTs: number;
}

/** Where an event sits in the output: its time and track. */
interface Spot {
  ts: number;
  pid: number;
  tid: number;
  name: string;
}

export interface ChromeWriterOptions {
  /** Shown in `otherData` (the input file, "live", …). */
  source?: string;
  /** The input's JSONL header, carried in `otherData.header` (a klog log has none). */
  header?: TraceHeader;
}

export class ChromeTraceWriter {
  /** Per key, its lives' processes (index: the life). */
  private readonly foos = new Map<string, FooProcess[]>();
  private nextPid = FIRST_FOO_PID;
  private first = true;
  private nextBind = 1;
  private readonly anchors = new BoundedMap<number, Spot>(ANCHOR_CAP);
  private queueMeta = false;
  /** Counts of what was written, for the CLI's summary. */
  readonly counts = { events: 0, passes: 0, flows: 0, records: 0 };

  constructor(
    private readonly write: (chunk: string) => void,
    opts: ChromeWriterOptions = {},
  ) {
    const otherData = {
      producer: "loopscope",
      format: CHROME_FORMAT_TAG,
      ...(opts.source ? { source: opts.source } : {}),
      ...(opts.header ? { header: headerRecord(opts.header) } : {}),
    };
    // No displayTimeUnit: some Perfetto versions read it as the unit of `ts`, which is µs.
    write(`{"otherData":${JSON.stringify(otherData)},"traceEvents":[\n`);
  }

  /** Writes one trace event as an instant on its lane (plus the queue counter when it has a length). */
  event(e: TraceEvent, life: number): void {
    this.counts.events++;
    const foo = this.foo(e.key, life, e.ts);
    const pid = foo.pid;
    const lane: ChromeLane = e.stage === "done" ? "passes" : e.stage === "note" ? "notes" : e.stage;
    const tid = laneTid(pid, lane);
    const name = instantName(e);
    const cat = e.stage === "done" || e.stage === "note" ? e.stage : "stage";
    this.emit({
      name,
      cat,
      ph: "i",
      s: "t",
      ts: e.ts,
      pid,
      tid,
      // The event as a JSONL record, so the reader decodes it like a JSONL line.
      args: eventRecord(e),
    });
    foo.lastTs = Math.max(foo.lastTs, e.ts);

    switch (e.stage) {
      case "write":
      case "watch":
      case "enqueue":
        this.anchors.set(e.seq, { ts: e.ts, pid, tid, name: e.stage });
        break;
      case "done":
        if (e.outcome === "requeued") {
          this.anchors.set(e.seq, { ts: e.ts, pid, tid, name: "requeued" });
          foo.requeues.push(e.seq);
          if (foo.requeues.length > 8) foo.requeues.shift();
        }
        break;
    }
    if ((e.stage === "enqueue" || e.stage === "dequeue") && e.len !== undefined) {
      if (!this.queueMeta) {
        this.queueMeta = true;
        // Metadata at the trace's own time: a ts of 0 would stretch some viewers' range to 1970.
        this.meta(QUEUE_PID, "process_name", { name: "workqueue" }, e.ts);
        this.meta(QUEUE_PID, "process_sort_index", { sort_index: 0 }, e.ts);
      }
      this.emit({
        name: "queue length",
        ph: "C",
        ts: e.ts,
        pid: QUEUE_PID,
        tid: laneTid(QUEUE_PID, "passes"),
        args: { ready: e.len },
      });
    }
  }

  /**
   * Writes a pass as an X slice and its triggers as arrows. A pass without `end` (still open when
   * the input ended) runs to its Foo's last event and says `open: true`.
   */
  pass(p: Pass, life: number): void {
    this.counts.passes++;
    const foo = this.foo(p.key, life, p.start);
    const pid = foo.pid;
    const tid = laneTid(pid, "passes");
    const end = p.end ?? Math.max(p.start, foo.lastTs);
    this.emit({
      name: `reconcile (${p.cause})`,
      cat: "pass",
      ph: "X",
      ts: p.start,
      dur: end - p.start,
      pid,
      tid,
      ...(p.cause === "self" ? { cname: "yellow" } : p.cause === "retry" ? { cname: "bad" } : {}),
      args: passArgs(p),
    });
    for (const t of p.triggers)
      this.arrow(foo, t, { ts: p.start, pid, tid, name: `trigger: ${t.cause}` });
  }

  /** Closes the JSON document. */
  end(): void {
    this.write("\n]}\n");
  }

  private arrow(foo: FooProcess, t: Trigger, target: Spot): void {
    const chain: Spot[] = [];
    const source =
      t.writeSeq !== undefined
        ? this.anchors.take(t.writeSeq)
        : t.cause === "retry"
          ? this.retrySource(foo, t.enqueueSeq)
          : undefined;
    if (source) chain.push(source);
    const watch = t.watchSeq !== undefined ? this.anchors.take(t.watchSeq) : undefined;
    if (watch) chain.push(watch);
    const enqueue = this.anchors.take(t.enqueueSeq);
    if (enqueue) chain.push(enqueue);
    if (chain.length === 0) return;
    chain.push(target);
    // A write is logged when its call returns, and its echo often before that (the watch is
    // another goroutine): Perfetto links a flow's points in time order, so a point later than the
    // next one is drawn at the next one's time — the arrow still leaves the write's lane.
    for (let i = chain.length - 2; i >= 0; i--)
      if (chain[i].ts > chain[i + 1].ts) chain[i] = { ...chain[i], ts: chain[i + 1].ts };
    const bind = this.nextBind++;
    this.counts.flows++;
    chain.forEach((s, i) => {
      const last = i === chain.length - 1;
      this.emit({
        name: s.name,
        cat: "flow",
        ph: "X",
        ts: s.ts,
        dur: 0,
        pid: s.pid,
        tid: s.tid,
        bind_id: bind,
        ...(i > 0 ? { flow_in: true } : {}),
        ...(!last ? { flow_out: true } : {}),
        ...(last
          ? { args: { cause: t.cause, inferred: t.inferred, enqueueSeq: t.enqueueSeq } }
          : {}),
      });
    });
  }

  /** The latest requeued pass end of the Foo before the retry's enqueue. */
  private retrySource(foo: FooProcess, enqueueSeq: number): Spot | undefined {
    const list = foo.requeues;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] < enqueueSeq) {
        const seq = list[i];
        list.splice(i, 1);
        return this.anchors.take(seq);
      }
    }
    return undefined;
  }

  /** The process of `key`'s life `life`, made at its first event (`ts`). */
  private foo(key: string, life: number, ts: number): FooProcess {
    let lives = this.foos.get(key);
    if (lives === undefined) this.foos.set(key, (lives = []));
    const known = lives[life];
    if (known !== undefined) return known;
    const pid = this.nextPid++;
    const foo: FooProcess = { pid, requeues: [], lastTs: ts };
    lives[life] = foo;
    const name = key === "" ? "(no Foo)" : `Foo ${key}${life > 0 ? ` (life ${life + 1})` : ""}`;
    this.meta(pid, "process_name", { name }, ts);
    this.meta(pid, "process_sort_index", { sort_index: pid }, ts);
    CHROME_LANES.forEach((lane, i) => {
      this.meta(pid, "thread_name", { name: lane }, ts, laneTid(pid, lane));
      this.meta(pid, "thread_sort_index", { sort_index: i }, ts, laneTid(pid, lane));
    });
    return foo;
  }

  private meta(
    pid: number,
    name: string,
    args: Record<string, unknown>,
    ts: number,
    tid = laneTid(pid, "passes"),
  ): void {
    this.emit({ name, ph: "M", ts, pid, tid, args });
  }

  /**
   * `ph` and `ts` go first: Perfetto's JSON tokenizer scans each event's keys in order up to `ts`
   * and (in some versions) gives up on an array or an escape it cannot read on the way.
   */
  private emit(ev: ChromeEvent): void {
    this.counts.records++;
    const { ph, ts, pid, tid, ...rest } = ev;
    const text = JSON.stringify({ ph, ts, pid, tid, ...rest });
    if (this.first) {
      this.first = false;
      this.write(text);
    } else this.write(",\n" + text);
  }
}

function instantName(e: TraceEvent): string {
  switch (e.stage) {
    case "watch":
      return `watch ${e.kind} ${e.event}${e.rv ? ` rv=${e.rv}` : ""}`;
    case "enqueue":
      return e.merged ? `enqueue (merged: ${e.merged})` : "enqueue";
    case "dequeue":
      return "dequeue";
    case "read":
      return e.found === false ? "read (not found)" : `read${e.rv ? ` rv=${e.rv}` : ""}`;
    case "write": {
      const result = e.reason ? ` ${e.reason}` : e.code !== undefined ? ` ${e.code}` : "";
      return `${e.verb} ${e.target}${result}`;
    }
    case "done":
      return `done ${e.outcome}`;
    case "note":
      return e.text.length > 80 ? e.text.slice(0, 77) + "…" : e.text;
  }
}

function passArgs(p: Pass): Record<string, unknown> {
  const args: Record<string, unknown> = {
    key: p.key,
    index: p.index,
    cause: p.cause,
    inferred: p.inferred,
    triggers: p.triggers.length,
    writes: p.writeSeqs.length,
    changingWrites: p.changingWrites,
    noopWrites: p.noopWrites,
    conflicts: p.conflicts,
  };
  if (p.outcome) args.outcome = p.outcome;
  if (p.worker !== undefined) args.worker = p.worker;
  if (p.changedFields.length) args.changedFields = p.changedFields;
  if (p.fromMarkers) args.fromMarkers = true;
  if (p.end === undefined) args.open = true;
  return args;
}
