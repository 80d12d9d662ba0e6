/**
 * Feeds a stream of events to an exporter together with each pass as it closes.
 *
 * Invariant: the exporter sees every event once, in order, and every pass once, right after
 * the event that closed it — or right before it, when the pass was closed by the key's next
 * dequeue because the log lost its end (so a pass never swallows the next pass's first event).
 * `end()` hands over the passes still open, then ends the exporter.
 */
import type { TraceEvent } from "../event.ts";
import type { Pass } from "../analysis/model.ts";
import type { AnalyzerOptions } from "../analysis/analyzer.ts";
import { PassStream } from "./pass-stream.ts";

export interface TraceExporter {
  event(e: TraceEvent): void;
  pass(p: Pass): void;
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
    const closed = this.passes.push(e);
    for (const p of closed) if (p.endSeq !== e.seq) this.exporter.pass(p);
    this.exporter.event(e);
    for (const p of closed) if (p.endSeq === e.seq) this.exporter.pass(p);
  }

  pushAll(events: Iterable<TraceEvent>): void {
    for (const e of events) this.push(e);
  }

  end(): void {
    for (const p of this.passes.rest()) this.exporter.pass(p);
    this.exporter.end();
  }
}
