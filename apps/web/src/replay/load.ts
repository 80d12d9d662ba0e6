/**
 * Loads a trace file into a fresh TraceSession through the replay's two workers (see
 * protocol.ts): batches are appended with their analysis as they arrive, so the lanes fill while
 * the file is still being read.
 */
import { TraceSession, type SessionSource } from "../store/session.ts";
import type { FromAnalysis, FromReader, ToAnalysis, ToReader, TraceRequest } from "./protocol.ts";

/**
 * Share of the file read when the store reserves room for the rest: by then the rows per byte have
 * settled, and the bytes read but not yet posted as rows (a chunk) skew them by a few percent.
 */
const RESERVE_AT = 0.2;

export interface Loading {
  session: TraceSession;
  cancel(): void;
}

export function loadTrace(blob: Blob, name: string, source: SessionSource): Loading {
  const session = new TraceSession(source);
  const feeding = feedSession(session, blob, name);
  // The outcome shows in the session's progress (error included).
  feeding.done.catch(() => undefined);
  return { session, cancel: feeding.cancel };
}

export interface Feeding {
  cancel(): void;
  /** Settles when every event is in the session (rejects with the load's error). */
  done: Promise<void>;
}

/**
 * Reads `input` into `session` through the two workers: its store gets the rows and its analysis
 * runs in the analysis worker. The session must be empty and fed no other way (see
 * TraceSession.pushColumns). `input` is a whole file, or a trace the reader worker fetches and
 * reads as it downloads (`loopscope replay`'s catch-up of a whole trace); `events`, when the
 * caller knows it, is how many events it holds (room is reserved for them at once, and the
 * progress of a download of unknown length counts them).
 */
export function feedSession(
  session: TraceSession,
  input: Blob | TraceRequest,
  name: string,
  events?: number,
): Feeding {
  const total = input instanceof Blob ? input.size : undefined;
  session.setProgress({ bytes: 0, total, events, done: false });
  if (events !== undefined) session.store.reserve(events);
  const reader = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  const analysis = new Worker(new URL("./analysisWorker.ts", import.meta.url), { type: "module" });
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  const stop = () => {
    reader.terminate();
    analysis.terminate();
  };
  const fail = (message: string) => {
    session.setProgress({ ...session.progress, done: true, error: message });
    stop();
    settle.reject(new Error(message));
  };
  let reserved = events !== undefined;
  reader.onmessage = (ev: MessageEvent<FromReader>) => fail(ev.data.message);
  // A worker that cannot start (its script failed to load) or died says so only here: without
  // these the load would wait forever.
  reader.onerror = (ev) => fail(`reader: ${ev.message || "the reader worker stopped"}`);
  analysis.onerror = (ev) => fail(`analysis: ${ev.message || "the analysis worker stopped"}`);
  reader.onmessageerror = analysis.onmessageerror = () =>
    fail("a worker's message could not be read");
  analysis.onmessage = (ev: MessageEvent<FromAnalysis>) => {
    const m = ev.data;
    if (m.type === "batch") {
      if (m.lineMarks && input instanceof Blob) session.addLineMarks(input, m.lineMarks);
      session.pushColumns(m.columns, m.analysis);
      session.addDiagnostics(m.diagnostics);
      session.setProgress({ bytes: m.bytes, total: m.total, events, done: false });
      if (!reserved && m.total !== undefined && m.bytes >= m.total * RESERVE_AT) {
        reserved = true;
        // Rows per byte so far, times the bytes still to come (an estimate: a little over).
        session.store.reserve(Math.ceil(((session.store.length * m.total) / m.bytes) * 1.1));
      }
    } else if (m.type === "done") {
      session.setProgress({ bytes: m.bytes, total: m.total, events, done: true });
      // Every event is in the store and the analysis: scripts/bench/load.ts times to here.
      performance.mark("loopscope:loaded");
      stop();
      settle.resolve();
    } else fail(`analysis: ${m.message}`);
  };
  const channel = new MessageChannel();
  analysis.postMessage({ type: "port", port: channel.port2 } satisfies ToAnalysis, [channel.port2]);
  reader.postMessage(
    { type: "open", file: input, name, analysis: channel.port1 } satisfies ToReader,
    [channel.port1],
  );
  return {
    done,
    cancel: () => {
      reader.postMessage({ type: "cancel" } satisfies ToReader);
      stop();
    },
  };
}

/** Fetches a sample or run by URL (relative to the page) and loads it. */
export async function fetchTrace(
  url: string,
  name: string,
  source: SessionSource,
  headers?: Record<string, string>,
): Promise<Loading> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  return loadTrace(await res.blob(), name, source);
}
