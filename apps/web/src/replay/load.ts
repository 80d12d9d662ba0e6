/**
 * Loads a trace file into a fresh TraceSession through the replay worker. Batches are appended as
 * they arrive, so the lanes fill while the file is still being read.
 */
import { TraceSession, type SessionSource } from "../store/session.ts";
import type { FromWorker, ToWorker } from "./protocol.ts";

export interface Loading {
  session: TraceSession;
  cancel(): void;
}

export function loadTrace(blob: Blob, name: string, source: SessionSource): Loading {
  const session = new TraceSession(source);
  session.setProgress({ bytes: 0, total: blob.size, done: false });
  const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  worker.onmessage = (ev: MessageEvent<FromWorker>) => {
    const m = ev.data;
    if (m.type === "batch") {
      session.pushColumns(m.columns, m.analysis);
      session.addDiagnostics(m.diagnostics);
      session.setProgress({ bytes: m.bytes, total: m.total, done: false });
    } else if (m.type === "done") {
      session.setProgress({ bytes: m.bytes, total: m.total, done: true });
      // Every event is in the store and the analysis: scripts/bench/load.ts times to here.
      performance.mark("loopscope:loaded");
      worker.terminate();
    } else {
      session.setProgress({ ...session.progress, done: true, error: m.message });
      worker.terminate();
    }
  };
  worker.onerror = (ev) => {
    session.setProgress({ ...session.progress, done: true, error: ev.message || "worker failed" });
    worker.terminate();
  };
  worker.postMessage({ type: "open", file: blob, name } satisfies ToWorker);
  return {
    session,
    cancel: () => {
      worker.postMessage({ type: "cancel" } satisfies ToWorker);
      worker.terminate();
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
