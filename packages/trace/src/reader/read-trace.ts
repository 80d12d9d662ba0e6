/**
 * The async face of TraceReader: `for await (const e of readTrace(chunks)) …`, then read
 * `format`, `diagnostics` and `lines` from the same object once the loop is done.
 */
import type { TraceEvent } from "../event.ts";
import type { Diagnostic } from "../analysis/model.ts";
import { TraceReader, type ReaderOptions, type TraceFormat } from "./trace-reader.ts";
import type { TraceHeader } from "../jsonl/format.ts";

export class TraceStream implements AsyncIterable<TraceEvent> {
  readonly reader: TraceReader;

  constructor(
    private readonly chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
    opts: ReaderOptions = {},
  ) {
    this.reader = new TraceReader(opts);
  }

  get format(): TraceFormat | undefined {
    return this.reader.format;
  }
  get header(): TraceHeader | undefined {
    return this.reader.header;
  }
  get diagnostics(): Diagnostic[] {
    return this.reader.diagnostics;
  }
  get lines(): number {
    return this.reader.lines;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TraceEvent> {
    for await (const chunk of this.chunks) yield* this.reader.push(chunk);
    yield* this.reader.end();
  }
}

/** Streams events from chunks; see TraceReader for the guarantees. */
export function readTrace(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  opts: ReaderOptions = {},
): TraceStream {
  return new TraceStream(chunks, opts);
}

/** Reads a whole text at once (tests, small pasted logs). */
export function readTraceText(
  text: string,
  opts: ReaderOptions = {},
): { events: TraceEvent[]; reader: TraceReader } {
  const reader = new TraceReader(opts);
  const events = reader.push(text);
  for (const e of reader.end()) events.push(e);
  return { events, reader };
}
