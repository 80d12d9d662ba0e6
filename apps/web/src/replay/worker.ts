/// <reference lib="webworker" />
/**
 * The replay's reader worker: reads a trace file (JSONL or klog, gzip or UTF-16 too), or one still
 * arriving over HTTP, and hands its rows as batches of typed-array columns (transferred) to the
 * analysis worker, which passes them on to the page (see protocol.ts). loopscope's own JSONL
 * records go from bytes to rows directly; everything else through packages/trace's push-style
 * reader (createRowReader, packages/trace/src/rows). The page never builds or clones an event object while a large file
 * loads. It keeps no rows after posting (the page's TraceStore owns them); it keeps the string
 * tables' ids.
 */
import {
  asUtf8,
  exportHead,
  LineMarks,
  utf16Of,
  whyNotATrace,
  type Diagnostic,
  type ExportHead,
  type TraceEvent,
  RowEncoder,
  transferList,
  createRowReader,
} from "@loopscope/trace";
import type { FromReader, ReaderToAnalysis, ToReader, TraceRequest } from "./protocol.ts";
import { fileChunks, GzipCheckFailed, streamChunks } from "./fileChunks.ts";

declare const self: DedicatedWorkerGlobalScope;

/**
 * Batches are posted at this size or this age, whichever comes first. The first batches are
 * small so the lanes appear at once; later ones grow to amortise the per-message cost (8k-event
 * batches read faster in the worker, but the messages cost the page and the analysis more:
 * a 1M-event load took 13.4 s instead of 10.5).
 */
const FIRST_BATCH_EVENTS = 1_000;
const MAX_BATCH_EVENTS = 50_000;
const BATCH_MS = 100;

let cancelled = false;

self.onmessage = (ev: MessageEvent<ToReader>) => {
  const msg = ev.data;
  if (msg.type === "cancel") cancelled = true;
  else if (msg.type === "open") {
    cancelled = false;
    read(msg.file, msg.name, msg.analysis).catch((err: unknown) => {
      post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    });
  }
};

function post(m: FromReader, transfer: Transferable[] = []): void {
  self.postMessage(m, transfer);
}

/**
 * The body of a fetched trace as it arrives, and its length when the server says it. Fetched here,
 * not by the page: the page's thread is busy taking the batches in, and a body it read and passed
 * on would wait for it between chunks.
 */
async function download(
  req: TraceRequest,
): Promise<{ body: ReadableStream<Uint8Array>; size?: number }> {
  const res = await fetch(req.url, { headers: req.headers });
  if (!res.ok || res.body === null) {
    const why = (await res.text().catch(() => "")).trim().slice(0, 200);
    throw new Error(`fetching the trace failed: HTTP ${res.status}${why ? ` (${why})` : ""}`);
  }
  // Content-Length counts what came over the wire: with a Content-Encoding it is not the size.
  const length = res.headers.get("content-encoding") ? null : res.headers.get("content-length");
  return { body: res.body, size: length === null ? undefined : Number(length) };
}

async function read(file: Blob | TraceRequest, name: string, analysis: MessagePort): Promise<void> {
  let bytes = 0;
  const count = (n: number) => (bytes += n);
  let total: number | undefined;
  let chunks: AsyncIterable<Uint8Array>;
  /**
   * For a plain file: a klog log's lines are left in the file, and the page reads back those it
   * shows (an event's `raw` is its whole line there). A gzip file cannot be read at an offset,
   * and a JSONL record's `raw` is not its line.
   */
  let marks: LineMarks | undefined;
  let gz = false;
  if (file instanceof Blob) {
    total = file.size;
    const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
    gz = /\.gz$/i.test(name) || (head[0] === 0x1f && head[1] === 0x8b);
    // A UTF-16 file (Windows PowerShell's `>`) is read as UTF-8: its offsets are not the text's.
    if (!gz && utf16Of(head) === undefined) marks = new LineMarks();
    chunks = asUtf8(fileChunks(file, gz, count));
  } else {
    const { body, size } = await download(file);
    total = size;
    chunks = asUtf8(streamChunks(body, count));
  }
  const encoder = new RowEncoder();
  const reader = createRowReader(encoder, marks === undefined);
  const toAnalysis = (m: ReaderToAnalysis, transfer: Transferable[] = []) =>
    analysis.postMessage(m, transfer);
  let diagnostics: Diagnostic[] = [];
  let last = performance.now();
  let batchEvents = FIRST_BATCH_EVENTS;
  const flush = (final = false) => {
    if (encoder.rows === 0 && diagnostics.length === 0 && !final) return;
    const columns = encoder.finish();
    const lineMarks = marks?.take();
    toAnalysis(
      { type: "batch", columns, final, diagnostics, bytes, total, lineMarks },
      transferList(columns),
    );
    batchEvents = Math.min(MAX_BATCH_EVENTS, batchEvents * 2);
    encoder.reserve(batchEvents);
    diagnostics = [];
    last = performance.now();
  };
  encoder.reserve(batchEvents);
  const sink = {
    event: (e: TraceEvent) => {
      if (marks !== undefined && e.raw !== undefined && reader.format() === "klog") {
        e.raw = undefined;
      }
      encoder.add(e);
      if (encoder.rows >= batchEvents) flush();
    },
    row: () => {
      if (encoder.rows >= batchEvents) flush();
    },
    diagnostic: (d: Diagnostic) => diagnostics.push(d),
  };
  let offset = 0;
  let corrupt: string | undefined;
  let failedCheck = false;
  let head: ExportHead | undefined;
  try {
    for await (const chunk of chunks) {
      if (cancelled) break;
      if (offset === 0) head = exportHead(chunk);
      if (marks === undefined) reader.push(chunk, sink);
      else marks.feed(chunk, offset, (piece) => reader.push(piece, sink), reader.lines);
      offset += chunk.length;
      // Only a klog log's rows leave their lines in the file.
      if (marks !== undefined && reader.format() === "jsonl") marks = undefined;
      if (encoder.rows >= batchEvents || performance.now() - last > BATCH_MS) flush();
    }
  } catch (err) {
    // A damaged gzip file (cut short, or junk after its end): keep what decompressed before the
    // damage, and say where it stopped — or, when only its check at the end failed, that all of
    // it was read but may be corrupt (in the reader's words, as the CLI says it).
    if (!gz) throw err;
    corrupt = err instanceof Error ? err.message : String(err);
    failedCheck = err instanceof GzipCheckFailed;
  }
  if (cancelled) return;
  if (corrupt !== undefined) {
    if (reader.lines() === 0) throw new Error(`${name}: damaged gzip data (${corrupt})`);
    if (failedCheck) reader.inputFailedCheck(`the gzip data failed its check (${corrupt})`, sink);
    else reader.inputStopped(`damaged gzip data: ${corrupt}`, sink);
  }
  reader.end(sink);
  // Said here, not left to an empty dashboard: the file was read, and none of it was a trace —
  // in the words the CLI uses for the same file. (A replay server judged its file itself.)
  const why = file instanceof Blob ? whyNotATrace(reader.outcome(), head) : undefined;
  if (why !== undefined) throw new Error(`${name} ${why}`);
  flush(true);
  toAnalysis({ type: "end", bytes, total, format: reader.format() });
}
