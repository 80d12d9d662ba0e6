/**
 * Feeds a stream of events to an exporter together with each pass as it closes.
 *
 * Invariant: the exporter sees every event once, in order, and every pass once, right after
 * the event that closed it — or right before it, when the pass was closed by the key's next
 * dequeue because the log lost its end (so a pass never swallows the next pass's first event).
 * `end()` hands over the passes still open, then ends the exporter. Each event and pass comes with
 * its Foo's life (see PassStream): a Foo deleted and created again is another object, which an
 * exporter shows apart (its own OTLP trace, its own Chrome process).
 */
import type { TraceEvent } from "../event.ts";
import type { Pass } from "../analysis/model.ts";
import type { AnalyzerOptions } from "../analysis/analyzer.ts";
import { PassStream } from "./pass-stream.ts";

export interface TraceExporter {
  /** `life`: which of its key's lives the event is of (0 = the first). */
  event(e: TraceEvent, life: number): void;
  pass(p: Pass, life: number): void;
  end(): void;
}

export class ExportPipeline {
  private readonly passes: PassStream;

  constructor(
    private readonly exporter: TraceExporter,
    opts: AnalyzerOptions = {},
  ) {
    this.passes = new PassStream(opts);
  }

  push(e: TraceEvent): void {
    const passes = this.passes;
    const closed = passes.push(e);
    for (const p of closed) if (p.endSeq !== e.seq) this.exporter.pass(p, passes.lifeOf(p));
    this.exporter.event(e, passes.life);
    for (const p of closed) if (p.endSeq === e.seq) this.exporter.pass(p, passes.lifeOf(p));
  }

  pushAll(events: Iterable<TraceEvent>): void {
    for (const e of events) this.push(e);
  }

  end(): void {
    for (const p of this.passes.rest()) this.exporter.pass(p, this.passes.lifeOf(p));
    this.exporter.end();
  }
}
