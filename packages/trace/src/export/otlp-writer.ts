/**
 * Writes a trace as OTLP/JSON spans (one `ExportTraceServiceRequest`), for Jaeger (upload, or
 * its OTLP receiver) and Grafana Tempo (POST to an OTLP/HTTP `/v1/traces` endpoint), streaming.
 *
 * Mapping:
 * - one trace per Foo — per life of its key: a Foo deleted and created again under its name is
 *   another object (see PassStream), and another trace — with a root span "Foo ns/name" from its
 *   first to its last event, and under it
 *   one span per pass ("reconcile/<cause>") from its first trigger (the watch or enqueue event
 *   that asked for it) to done — its dequeue span event marks where the work began, and the time
 *   before it is the pass's wait in the queue; events no pass claimed (the triggers of a pass the
 *   trace ended before, notes logged between passes) are span events of the root span;
 * - the pass's own stage events (dequeue, read, writes, done, notes) and its triggers are span
 *   events, at their own times, inside the span's time: viewers draw an event outside its span at
 *   a negative offset, or not at all;
 * - events of no Foo (an informer's notes — a watch closed, a re-list —, watch events of objects
 *   no Foo owns) are a trace of their own, "controller (no Foo)", as Chrome's "(no Foo)" process;
 * - each trigger that came from an earlier pass — the write whose echo it was, or the failed pass
 *   it retries — is a span link to that pass's span, with the cause as an attribute;
 * - a pass that ended in error is status ERROR with the error text;
 * - the resource names the input (`loopscope.source`) and carries a JSONL input's header.
 *
 * Ids are derived from the Foo key and the first timestamp of its life (FNV-1a), so the same trace
 * always gives the same ids, and neither two runs of the same Foo nor two lives of one key merge in
 * a backend.
 *
 * Memory: per Foo life a small record and the events waiting for their pass (bounded); a bounded map
 * from recent write seqs to the span that made them.
 */
import type { PassEndEvent, TraceEvent } from "../event.ts";
import type { Pass } from "../analysis/model.ts";
import { headerRecord, type TraceHeader } from "../jsonl/format.ts";
import { BoundedMap } from "./bounded-map.ts";
import {
  STATUS_CODE_ERROR,
  SPAN_KIND_INTERNAL,
  attributes,
  hash64,
  microsToNanos,
  type OtlpLink,
  type OtlpSpan,
  type OtlpSpanEvent,
} from "./otlp-format.ts";

/** Events waiting for the pass they belong to, per Foo. */
const PENDING_CAP = 1024;
const WRITE_SPAN_CAP = 1 << 16;
/**
 * Span events of one root span (a Foo's notes between passes; the no-Foo trace's events): a span
 * with more than this many is more than a viewer draws. The rest are counted `unplaced`.
 */
const ROOT_EVENTS_CAP = 4096;
/** The key the no-Foo trace is kept under in `foos`: no Foo key is empty. */
const NO_FOO = "";

interface FooTrace {
  /** 0 for the key's first life, 1 once it was created again, … */
  life: number;
  traceId: string;
  rootSpanId: string;
  firstTs: number;
  lastTs: number;
  passes: number;
  pending: TraceEvent[];
  /** Claimed by no pass, and no longer waiting for one: the root span's events. */
  rootEvents: TraceEvent[];
  /**
   * Span of the key's latest pass that asked for a retry: the retry's pass links to it, whatever
   * passes an echo queued in between (the retry waits out its rate limit; they need not).
   */
  requeuedSpan?: string;
}

export interface OtlpWriterOptions {
  /** resource `service.name` (default "sample-controller"). */
  serviceName?: string;
  /** Recorded as resource attribute `loopscope.source`. */
  source?: string;
  /**
   * The input's JSONL header (a klog log has none): each of its fields — `created`, `scenario`,
   * `cluster`, … — a resource attribute `loopscope.header.<field>` (objects as their JSON text).
   */
  header?: TraceHeader;
}

export class OtlpTraceWriter {
  /** Per key, its lives' traces (index: the life). */
  private readonly foos = new Map<string, FooTrace[]>();
  private readonly writeSpans = new BoundedMap<number, string>(WRITE_SPAN_CAP);
  private first = true;
  readonly counts = { events: 0, spans: 0, links: 0, spanEvents: 0, unplaced: 0 };

  constructor(
    private readonly write: (chunk: string) => void,
    opts: OtlpWriterOptions = {},
  ) {
    const resource = {
      attributes: attributes({
        "service.name": opts.serviceName ?? "sample-controller",
        "telemetry.sdk.name": "loopscope",
        "telemetry.sdk.language": "nodejs",
        ...(opts.source ? { "loopscope.source": opts.source } : {}),
        ...(opts.header ? headerAttributes(opts.header) : {}),
      }),
    };
    const scope = { name: "loopscope", version: "1" };
    write(
      `{"resourceSpans":[{"resource":${JSON.stringify(resource)},"scopeSpans":[{"scope":${JSON.stringify(scope)},"spans":[\n`,
    );
  }

  event(e: TraceEvent, life: number): void {
    this.counts.events++;
    if (e.key === NO_FOO) {
      const trace = this.foo(NO_FOO, 0, e.ts);
      trace.lastTs = Math.max(trace.lastTs, e.ts);
      this.toRoot(trace, e);
      return;
    }
    const foo = this.foo(e.key, life, e.ts);
    foo.lastTs = Math.max(foo.lastTs, e.ts);
    foo.pending.push(e);
    if (foo.pending.length > PENDING_CAP) {
      foo.pending.shift();
      this.counts.unplaced++;
    }
  }

  pass(p: Pass, life: number): void {
    const foo = this.foo(p.key, life, p.start);
    const spanId = hash64(`${foo.traceId}/pass/${p.index}`);
    const triggerSeqs = new Set<number>();
    for (const t of p.triggers) {
      triggerSeqs.add(t.enqueueSeq);
      if (t.watchSeq !== undefined) triggerSeqs.add(t.watchSeq);
    }
    const endSeq = p.endSeq ?? Infinity;
    const own: TraceEvent[] = [];
    const keep: TraceEvent[] = [];
    let start = p.start;
    for (const e of foo.pending) {
      if (triggerSeqs.has(e.seq)) start = Math.min(start, e.ts);
    }
    for (const e of foo.pending) {
      const inner = e.stage !== "watch" && e.stage !== "enqueue";
      if (triggerSeqs.has(e.seq)) own.push(e);
      else if (inner && e.seq <= endSeq) {
        // A note logged before the pass's first trigger happened between passes: the Foo's.
        if (e.ts < start) this.toRoot(foo, e);
        else own.push(e);
      } else keep.push(e);
    }
    foo.pending = keep;
    const done = own.find((e): e is PassEndEvent => e.stage === "done" && e.seq === p.endSeq);

    const links: OtlpLink[] = [];
    for (const t of p.triggers) {
      const from = t.writeSeq !== undefined ? this.writeSpans.get(t.writeSeq) : undefined;
      if (from) {
        links.push({
          traceId: foo.traceId,
          spanId: from,
          attributes: attributes({ "loopscope.cause": t.cause, "loopscope.write.seq": t.writeSeq }),
        });
      } else if (t.cause === "retry" && foo.requeuedSpan !== undefined) {
        links.push({
          traceId: foo.traceId,
          spanId: foo.requeuedSpan,
          attributes: attributes({ "loopscope.cause": "retry" }),
        });
      }
    }
    for (const seq of p.writeSeqs) this.writeSpans.set(seq, spanId);

    let end = p.end ?? Math.max(p.start, foo.lastTs);
    for (const e of own) end = Math.max(end, e.ts);
    const [ns, name] = splitKey(p.key);
    const span: OtlpSpan = {
      traceId: foo.traceId,
      spanId,
      parentSpanId: foo.rootSpanId,
      name: `reconcile/${p.cause}`,
      kind: SPAN_KIND_INTERNAL,
      startTimeUnixNano: microsToNanos(start),
      endTimeUnixNano: microsToNanos(end),
      attributes: attributes({
        "k8s.namespace.name": ns,
        "loopscope.key": p.key,
        "loopscope.foo.name": name,
        "loopscope.pass.index": p.index,
        "loopscope.pass.cause": p.cause,
        "loopscope.pass.inferred": p.inferred,
        "loopscope.pass.outcome": p.outcome,
        "loopscope.pass.open": p.end === undefined ? true : undefined,
        "loopscope.pass.triggers": p.triggers.length,
        "loopscope.pass.writes": p.writeSeqs.length,
        "loopscope.pass.changing_writes": p.changingWrites,
        "loopscope.pass.noop_writes": p.noopWrites,
        "loopscope.pass.conflicts": p.conflicts,
        "loopscope.pass.changed_fields": p.changedFields.length ? p.changedFields : undefined,
        "loopscope.worker": p.worker,
      }),
      events: own.sort((a, b) => a.seq - b.seq).map(spanEvent),
    };
    if (links.length) span.links = links;
    if (p.outcome === "requeued" || p.outcome === "dropped") {
      span.status = { code: STATUS_CODE_ERROR, message: done?.error ?? p.outcome };
    }
    this.counts.links += links.length;
    this.counts.spanEvents += own.length;
    foo.passes++;
    if (p.outcome === "requeued") foo.requeuedSpan = spanId;
    this.emit(span);
  }

  /**
   * Writes each Foo life's root span — carrying, as span events, the Foo's events no pass claimed
   * (triggers of a pass that never ran before the trace ended, notes between passes) — and the
   * no-Foo trace's, and closes the document.
   */
  end(): void {
    for (const [key, lives] of this.foos) for (const foo of lives) if (foo) this.root(key, foo);
    this.write("\n]}]}]}\n");
  }

  private toRoot(foo: FooTrace, e: TraceEvent): void {
    if (foo.rootEvents.length < ROOT_EVENTS_CAP) foo.rootEvents.push(e);
    else this.counts.unplaced++;
  }

  private root(key: string, foo: FooTrace): void {
    if (key === NO_FOO) return this.noFooRoot(foo);
    const [ns, name] = splitKey(key);
    for (const e of foo.pending) this.toRoot(foo, e);
    const rest = foo.rootEvents.sort((a, b) => a.seq - b.seq).map(spanEvent);
    this.counts.spanEvents += rest.length;
    this.emit({
      traceId: foo.traceId,
      spanId: foo.rootSpanId,
      name: `Foo ${key}`,
      kind: SPAN_KIND_INTERNAL,
      startTimeUnixNano: microsToNanos(foo.firstTs),
      endTimeUnixNano: microsToNanos(foo.lastTs),
      attributes: attributes({
        "k8s.namespace.name": ns,
        "loopscope.key": key,
        "loopscope.foo.name": name,
        "loopscope.foo.life": foo.life + 1,
        "loopscope.passes": foo.passes,
      }),
      ...(rest.length ? { events: rest } : {}),
    });
  }

  /** The events of no Foo: one span over them, in a trace of its own. */
  private noFooRoot(trace: FooTrace): void {
    const events = trace.rootEvents.sort((a, b) => a.seq - b.seq).map(spanEvent);
    this.counts.spanEvents += events.length;
    this.emit({
      traceId: trace.traceId,
      spanId: trace.rootSpanId,
      name: "controller (no Foo)",
      kind: SPAN_KIND_INTERNAL,
      startTimeUnixNano: microsToNanos(trace.firstTs),
      endTimeUnixNano: microsToNanos(trace.lastTs),
      attributes: attributes({ "loopscope.events": events.length }),
      events,
    });
  }

  private foo(key: string, life: number, ts: number): FooTrace {
    let lives = this.foos.get(key);
    if (!lives) this.foos.set(key, (lives = []));
    let foo = lives[life];
    if (!foo) {
      const seed = `${key}@${ts}`;
      const traceId = hash64(seed) + hash64(`${seed}#trace`);
      foo = {
        life,
        traceId,
        rootSpanId: hash64(`${traceId}/root`),
        firstTs: ts,
        lastTs: ts,
        passes: 0,
        pending: [],
        rootEvents: [],
      };
      lives[life] = foo;
    }
    return foo;
  }

  private emit(span: OtlpSpan): void {
    this.counts.spans++;
    const text = JSON.stringify(span);
    if (this.first) {
      this.first = false;
      this.write(text);
    } else this.write(",\n" + text);
  }
}

function splitKey(key: string): [string | undefined, string] {
  const slash = key.indexOf("/");
  return slash >= 0 ? [key.slice(0, slash), key.slice(slash + 1)] : [undefined, key];
}

/** A stage event as a span event: its fields (minus the ones the span already says) as attributes. */
function spanEvent(e: TraceEvent): OtlpSpanEvent {
  const { ts, key: _key, stage, extra, raw: _raw, ...fields } = e;
  const name =
    stage === "watch"
      ? `watch ${e.kind} ${e.event}`
      : stage === "write"
        ? `${e.verb} ${e.target}`
        : stage === "done"
          ? `done ${e.outcome}`
          : stage === "note"
            ? "note"
            : stage;
  return {
    timeUnixNano: microsToNanos(ts),
    name,
    attributes: attributes({ stage, ...fields, ...(extra ? { extra } : {}) }),
  };
}

/** A JSONL header's fields as `loopscope.header.<field>`, but the format's own name and version. */
function headerAttributes(h: TraceHeader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(headerRecord(h)))
    if (k !== "loopscope" && k !== "version") out[`loopscope.header.${k}`] = v;
  return out;
}
