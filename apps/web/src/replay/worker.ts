/// <reference lib="webworker" />
/**
 * The replay worker: reads a trace file (JSONL or klog, optionally gzip) as a stream with
 * packages/trace's push-style reader and posts events in batches, so the page stays responsive
 * while a large file loads. It keeps nothing after posting: the page's TraceStore owns the events.
 */
import type { Diagnostic, TraceEvent } from "@loopscope/trace";
import type { FromWorker, ToWorker } from "./protocol.ts";
import { createReader } from "./readerPort.ts";

declare const self: DedicatedWorkerGlobalScope;

/**
 * Batches are posted at this size or this age, whichever comes first. The first batches are
 * small so the lanes appear at once; later ones grow to amortise the per-message cost.
 */
const FIRST_BATCH_EVENTS = 1_000;
const MAX_BATCH_EVENTS = 20_000;
const BATCH_MS = 60;

let cancelled = false;

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  if (msg.type === "cancel") cancelled = true;
  else if (msg.type === "open") {
    cancelled = false;
    read(msg.file, msg.name).catch((err: unknown) => {
      post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    });
  }
};

function post(m: FromWorker): void {
  self.postMessage(m);
}

async function isGzip(file: Blob, name: string): Promise<boolean> {
  if (/\.gz$/i.test(name)) return true;
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

async function read(file: Blob, name: string): Promise<void> {
  const total = file.size;
  let bytes = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        bytes += chunk.byteLength;
        ctl.enqueue(chunk);
      },
    }),
  );
  const gz = await isGzip(file, name);
  const stream = gz
    ? counted.pipeThrough(
        new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
      )
    : counted;
  const reader = createReader(name.replace(/\.gz$/i, ""));
  let events: TraceEvent[] = [];
  let diagnostics: Diagnostic[] = [];
  let last = performance.now();
  let batchEvents = FIRST_BATCH_EVENTS;
  const flush = () => {
    if (events.length === 0 && diagnostics.length === 0) return;
    post({ type: "batch", events, diagnostics, bytes, total });
    batchEvents = Math.min(MAX_BATCH_EVENTS, batchEvents * 2);
    events = [];
    diagnostics = [];
    last = performance.now();
  };
  const sink = {
    event: (e: TraceEvent) => {
      events.push(e);
      if (events.length >= batchEvents) flush();
    },
    diagnostic: (d: Diagnostic) => diagnostics.push(d),
  };
  const it = stream.getReader();
  for (;;) {
    const { value, done } = await it.read();
    if (done || cancelled) break;
    reader.push(value, sink);
    if (performance.now() - last > BATCH_MS) flush();
  }
  if (cancelled) return;
  reader.end(sink);
  flush();
  post({ type: "done", bytes, total, format: reader.format() });
}
