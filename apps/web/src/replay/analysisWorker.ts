/// <reference lib="webworker" />
/**
 * The replay's analysis worker: takes the reader worker's column batches, rebuilds their events,
 * runs packages/trace's Analyzer on them and hands each batch on to the page together with what it
 * changed in the analysis (see protocol.ts). It runs beside the reader worker, on the other core.
 */
import { transferList } from "@loopscope/trace";
import { passTransferList } from "../store/passColumns.ts";
import { AnalysisFeed } from "./analysisFeed.ts";
import type { FromAnalysis, ReaderToAnalysis, ToAnalysis } from "./protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

function post(m: FromAnalysis): void {
  self.postMessage(
    m,
    m.type === "batch"
      ? [
          ...transferList(m.columns),
          ...passTransferList(m.analysis.passes),
          // The shared empty batch's buffer stays: a transferred buffer is detached.
          ...(m.analysis.summaries.values.length > 0 ? [m.analysis.summaries.values.buffer] : []),
        ]
      : [],
  );
}

self.onmessage = (ev: MessageEvent<ToAnalysis>) => {
  const feed = new AnalysisFeed();
  ev.data.port.onmessage = (m: MessageEvent<ReaderToAnalysis>) => {
    const msg = m.data;
    try {
      if (msg.type === "batch") {
        feed.pushBatch(msg.columns);
        const { final, ...batch } = msg;
        post({ ...batch, analysis: feed.take(performance.now(), final) });
      } else {
        post({ type: "done", bytes: msg.bytes, total: msg.total, format: msg.format });
      }
    } catch (err) {
      post({ type: "error", message: err instanceof Error ? err.message : String(err) });
    }
  };
};
