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
  const diagnostics = (sink: ReaderSink) => {
    while (diagnosed < reader.diagnostics.length) sink.diagnostic(reader.diagnostics[diagnosed++]);
  };
  // Events go to the sink as they are read: none waits for the rest of its chunk (young objects
  // die young; a chunk's worth of them would outlive a garbage collection).
  return {
    push: (chunk, sink) => {
      reader.push(chunk, sink.event);
      diagnostics(sink);
    },
    end: (sink) => {
      reader.end(sink.event);
      diagnostics(sink);
    },
    format: () => reader.format ?? "empty",
  };
}
