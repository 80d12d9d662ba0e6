/**
 * The replay worker's reader (rows/row-reader.ts: rows straight from loopscope's JSONL records and from
 * klog STAGE lines) against the general one (TraceReader, then RowEncoder.add on every event):
 * both must make the same batch of any input, in any chunking.
 */
import { expect } from "vitest";
import {
  TraceReader,
  type Diagnostic,
  type TraceEvent,
  RowEncoder,
  type ColumnBatch,
  createRowReader,
} from "../index.ts";

export interface Read {
  batch: ColumnBatch;
  diagnostics: Diagnostic[];
  format: string;
  /** Events that went through the sink (rows the fast paths took are not events). */
  events: TraceEvent[];
  /** Lines read. */
  lines: number;
  /** Diagnostics made, those beyond `diagnostics` (the reader keeps 1000) included. */
  diagnosticCount: number;
}

/**
 * Every event through RowEncoder.add. `keepRaw` false: as the worker reads a plain klog file,
 * whose lines the page reads back from it (an event's `raw` is dropped).
 */
export function general(chunks: Uint8Array[], keepRaw = true): Read {
  const reader = new TraceReader();
  const encoder = new RowEncoder();
  const events: TraceEvent[] = [];
  const add = (e: TraceEvent) => {
    if (!keepRaw && reader.format === "klog") e.raw = undefined;
    events.push(e);
    encoder.add(e);
  };
  for (const c of chunks) reader.push(c, add);
  reader.end(add);
  return {
    batch: encoder.finish(),
    diagnostics: reader.diagnostics,
    format: reader.format ?? "empty",
    events,
    lines: reader.lines,
    diagnosticCount: reader.diagnosticCount,
  };
}

/** The worker's reader, fed as the worker feeds it. */
export function fast(chunks: Uint8Array[], keepRaw = true): Read {
  const encoder = new RowEncoder();
  const diagnostics: Diagnostic[] = [];
  const events: TraceEvent[] = [];
  const port = createRowReader(encoder, keepRaw);
  const sink = {
    event: (e: TraceEvent) => {
      if (!keepRaw && port.format() === "klog") e.raw = undefined;
      events.push(e);
      encoder.add(e);
    },
    diagnostic: (d: Diagnostic) => diagnostics.push(d),
  };
  // As the worker reads a file: every chunk in one and the same buffer, overwritten once pushed
  // (a reader that kept a view of a chunk would read the bytes of the next one).
  const buffer = new Uint8Array(Math.max(1, ...chunks.map((c) => c.length)));
  for (const c of chunks) {
    buffer.set(c);
    port.push(buffer.subarray(0, c.length), sink);
    buffer.fill(0x7b);
  }
  port.end(sink);
  return {
    batch: encoder.finish(),
    diagnostics,
    format: port.format(),
    events,
    lines: port.lines(),
    diagnosticCount: port.diagnosticCount(),
  };
}

/** The batch as plain arrays (NaN compares equal under toEqual). */
export function plain(b: ColumnBatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b))
    out[k] = ArrayBuffer.isView(v) ? Array.from(v as Uint32Array) : v;
  return out;
}

/** `bytes` cut at `cuts` (taken modulo its length, in order, each once). */
export function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.slice(from, c));
    from = c;
  }
  return out;
}

/** Both readers on `bytes` cut at `cuts`: the same batch, diagnostics and format. */
export function expectSame(bytes: Uint8Array, cuts: number[] = [], keepRaw = true): Read {
  const chunks = chunked(bytes, cuts);
  const a = general(chunks, keepRaw);
  const b = fast(chunks, keepRaw);
  expect(plain(b.batch)).toEqual(plain(a.batch));
  expect(b.diagnostics).toEqual(a.diagnostics);
  expect(b.format).toBe(a.format);
  return b;
}
