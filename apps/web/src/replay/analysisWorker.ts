/// <reference lib="webworker" />
/**
 * The replay's analysis worker: rebuilds the events of the reader worker's column batches and runs
 * packages/trace's Analyzer on them, posting to the page what each batch changed. It runs beside
 * the reader worker (the other core) instead of after it on the same thread.
 */
import { RowDecoder } from "../store/rowDecoder.ts";
import { AnalysisFeed } from "./analysisFeed.ts";
import type { FromAnalysis, ReaderToAnalysis, ToAnalysis } from "./protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

function post(m: FromAnalysis): void {
  self.postMessage(m);
}

self.onmessage = (ev: MessageEvent<ToAnalysis>) => {
  const decoder = new RowDecoder();
  const feed = new AnalysisFeed();
  ev.data.port.onmessage = (m: MessageEvent<ReaderToAnalysis>) => {
    try {
      if (m.data.type === "batch") {
        for (const e of decoder.decode(m.data.columns)) feed.push(e);
        post({ type: "analysis", update: feed.take(performance.now()) });
      } else {
        post({ type: "analysis", update: feed.take(performance.now(), true) });
        post({ type: "done" });
      }
    } catch (err) {
      post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    }
  };
};
