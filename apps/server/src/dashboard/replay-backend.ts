/**
 * The backend of `loopscope replay FILE`: the file read once with packages/trace's reader (JSONL
 * or klog, detected), every event held in the hub, served over the same API as a live run.
 * Read-only: actions answer 409. Problems in the file are reported, the rest loads.
 */
import { basename } from "node:path";
import { open } from "node:fs/promises";
import {
  exportHead,
  LineFile,
  LineMarks,
  TraceReader,
  type ExportHead,
  type ByteSource,
  type Diagnostic,
  type TraceEvent,
  type TraceHeader,
} from "@loopscope/trace";
import { count } from "../cli/count.ts";
import { HeapGuard } from "../cli/heap-guard.ts";
import { InputError, openTraceInput, upToDamage } from "../cli/input.ts";
import { progressMeter } from "../cli/progress.ts";
import { refuseNonTrace } from "../cli/read-trace-file.ts";
import { decodeUtf8 } from "../cli/utf8.ts";
import type { LoadIssue } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import type { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { HttpError } from "../http/respond.ts";
import type { DashboardBackend } from "./backend.ts";
import { VERSION } from "./version.ts";

const SHOWN_ISSUES = 100;

export interface LoadedTrace {
  /** Holds every event of the file, numbered 1, 2, 3 … */
  hub: TraceHub;
  format: string;
  diagnostics: Diagnostic[];
  diagnosticCount: number;
  /** A JSONL file's header, when it has one: a download of the trace carries it as it came. */
  header?: TraceHeader;
  /** The first event's time (µs): when a log without a header began. */
  firstTs?: number;
  /**
   * A plain klog file's lines, read back from it: its events are held without them (`raw`),
   * which was ~40 % of what the hub held per event. Undefined for JSONL, gzip files and pipes.
   */
  lines?: LineFile;
}

/**
 * Streams `file` ("-": stdin; gzip detected, like `stats`) through packages/trace's reader
 * straight into a hub that keeps it all. Throws InputError with a one-line reason when the file cannot be read.
 */
export async function loadTrace(file: string, year?: number): Promise<LoadedTrace> {
  const input = await openTraceInput(file);
  const reader = new TraceReader({ decode: decodeUtf8, ...(year !== undefined ? { year } : {}) });
  const hub = new TraceHub({ ringCapacity: Infinity });
  const renumber = renumberer();
  // A plain file's klog lines are read back from it later; a pipe gives its bytes once, and a
  // gzip or UTF-16 file's bytes are not the text's, so their events keep their lines.
  const marks = input.readBack ? new LineMarks() : undefined;
  let firstTs: number | undefined;
  const take = (e: TraceEvent) => {
    // A klog event's `raw` is its whole line (numbered `line`): the file keeps it.
    if (marks !== undefined && reader.format === "klog") e.raw = undefined;
    firstTs ??= e.ts;
    hub.push(renumber(e));
  };
  // A million events take seconds before the dashboard's URL can be printed: say how far it got.
  const progress = progressMeter(input.name, input.size, input.bytesRead);
  let offset = 0;
  let head: ExportHead | undefined;
  const heap = new HeapGuard();
  try {
    for await (const chunk of upToDamage(input.chunks, reader)) {
      const full = heap.full();
      if (full) throw tooBig(input.name, hub.lastSeq, input.bytesRead(), full.limitMb);
      if (offset === 0) {
        head = exportHead(chunk);
      }
      if (marks === undefined) reader.push(chunk, take);
      else
        marks.feed(
          chunk,
          offset,
          (piece) => reader.push(piece, take),
          () => reader.lines,
        );
      offset += chunk.length;
      progress.update();
    }
    reader.end(take);
  } finally {
    heap.stop();
    progress.done();
  }
  refuseNonTrace(reader, input.name, head);
  let lines: LineFile | undefined;
  if (marks !== undefined && reader.format === "klog") {
    lines = new LineFile(await fileBytes(file));
    lines.addMarks(marks.take() ?? new Float64Array(0));
  }
  return {
    hub,
    format: reader.format ?? "unknown",
    diagnostics: reader.diagnostics,
    diagnosticCount: reader.diagnosticCount,
    header: reader.header,
    ...(firstTs !== undefined && { firstTs }),
    lines,
  };
}

/**
 * The file's events fill the heap: a reason, rather than V8's out-of-memory dump minutes later.
 * `stats` and `convert` read as they go and do not keep the events, so they take such a file.
 */
function tooBig(name: string, events: number, bytes: number, limitMb: number): InputError {
  const mb = Math.round(bytes / 2 ** 20);
  return new InputError(
    `${name}: too big to replay: its first ${count(events, "event")} (${mb} MB of the file read) fill most of the ${limitMb} MB heap, and replay holds every event; ` +
      `replay a part of it (zcat -f FILE | head -n 1000000 | loopscope replay -), give Node more (NODE_OPTIONS=--max-old-space-size=MB), or use loopscope stats FILE, which does not keep the events`,
  );
}

/** Bytes of the file's start compared at each read: a rewrite in place changes them. */
const HEAD_BYTES = 4096;

/**
 * The file's bytes at any offset, through a handle opened now and kept for the server's life
 * (a replay serves one file until Ctrl-C). A file replaced (an editor's save, a rename over it)
 * is still read as it was; one appended to keeps its lines where they were. One rewritten in
 * place (`cmd > file` again) would give other text at the same offsets: a read then fails with
 * a reason (409) rather than show a line the trace never had.
 */
async function fileBytes(path: string): Promise<ByteSource> {
  const fh = await open(path, "r");
  const { size } = await fh.stat();
  const bytesAt = async (at: number, length: number) => {
    const buf = new Uint8Array(Math.max(0, Math.min(length, size - at)));
    const { bytesRead } = await fh.read(buf, 0, buf.length, at);
    return buf.subarray(0, bytesRead);
  };
  const head = Buffer.from(await bytesAt(0, HEAD_BYTES));
  return {
    size,
    async read(at, length) {
      const now = await fh.stat();
      if (now.size < size || !head.equals(await bytesAt(0, head.length)))
        throw new HttpError(
          409,
          `${basename(path)} was rewritten since loopscope replay read it: its lines are no longer this trace's (restart replay to read it again)`,
        );
      return bytesAt(at, length);
    },
  };
}

/**
 * The hub numbers events 1, 2, 3 …; a file whose seqs do not (a range download, a file with
 * gaps) is renumbered, its `causeSeq` links remapped, the original kept in extra.fileSeq.
 * Streaming: only seqs after the first departure from 1, 2, 3 … are remembered.
 */
export function renumberer(): (e: TraceEvent) => TraceEvent {
  let next = 1;
  let identityUpTo = 0;
  const moved = new Map<number, number>();
  return (e) => {
    const seq = next++;
    if (e.seq === seq && moved.size === 0) {
      identityUpTo = seq;
      return e;
    }
    moved.set(e.seq, seq);
    const copy = { ...e, seq, extra: { ...e.extra, fileSeq: e.seq } } as TraceEvent;
    if (copy.stage === "enqueue" && copy.causeSeq !== undefined) {
      const to = copy.causeSeq <= identityUpTo ? copy.causeSeq : moved.get(copy.causeSeq);
      if (to === undefined) delete copy.causeSeq;
      else copy.causeSeq = to;
    }
    return copy;
  };
}

/** The dashboard's API over a loaded trace; `file` "-" (stdin) is shown as "stdin". */
export function replayBackend(
  file: string,
  loaded: LoadedTrace,
  runs: RunsFolder,
): DashboardBackend {
  const hub = loaded.hub;
  const name = file === "-" ? "stdin" : basename(file);
  const loadIssues: LoadIssue[] = loaded.diagnostics
    .slice(0, SHOWN_ISSUES)
    .map((d) => ({ line: d.line, message: d.message, ...(d.level ? { level: d.level } : {}) }));
  return {
    mode: "replay",
    hub,
    runs,
    info: () => ({
      mode: "replay",
      version: VERSION,
      cluster: { kind: "none" },
      trace: name,
      loadIssues,
      loadIssuesTotal: loaded.diagnosticCount,
      ...(loaded.lines ? { linesInFile: true } : {}),
      scenarios: [],
      lessons: { hotLoopBug: false, idempotentStatus: false },
    }),
    // The file's own header, where it has one: its `created`, its scenario, its cluster. A log
    // without one was created when its first line was written, not when it was replayed.
    traceMeta: () => ({
      source: loaded.header?.source ?? `replay:${name}`,
      created:
        loaded.header?.created ??
        new Date(
          loaded.firstTs !== undefined ? Math.floor(loaded.firstTs / 1000) : Date.now(),
        ).toISOString(),
      extra: loaded.header?.extra,
    }),
    lines: loaded.lines,
  };
}
