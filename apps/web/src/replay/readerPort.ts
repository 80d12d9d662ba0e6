/**
 * The seam to packages/trace's streaming TraceReader (JSONL or klog, detected from the first
 * line). The worker feeds it byte chunks; events and new diagnostics come out through a sink.
 */
import { TraceReader, type Diagnostic, type TraceEvent } from "@loopscope/trace";

export interface ReaderSink {
  event(e: TraceEvent): void;
  diagnostic(d: Diagnostic): void;
}

export interface ReaderPort {
  push(chunk: Uint8Array, sink: ReaderSink): void;
  end(sink: ReaderSink): void;
  /** "jsonl" | "klog" once known. */
  format(): string;
}

export function createReader(_name: string): ReaderPort {
  const reader = new TraceReader();
  let diagnosed = 0;
  const drain = (events: TraceEvent[], sink: ReaderSink) => {
    for (const e of events) sink.event(e);
    while (diagnosed < reader.diagnostics.length) sink.diagnostic(reader.diagnostics[diagnosed++]);
  };
  return {
    push: (chunk, sink) => drain(reader.push(chunk), sink),
    end: (sink) => drain(reader.end(), sink),
    format: () => reader.format ?? "empty",
  };
}
