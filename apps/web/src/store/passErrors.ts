/**
 * The errors the controller logged during a pass. sample-controller logs some failures with
 * HandleError and returns nil (a Foo with no deploymentName; the Foo gone from the lister), so the
 * pass ends "synced" — only its error line tells. Read from the store's rows of the pass, not
 * kept in the analysis: a pass has few events, and only the panels on screen ask.
 */
import type { Pass } from "@loopscope/trace";
import { KIND_CODES } from "./rowEncoder.ts";
import type { TraceStore } from "./traceStore.ts";

const NOTE = KIND_CODES.indexOf("note");

export interface PassError {
  seq: number;
  text: string;
}

export function passErrors(store: TraceStore, pass: Pass): PassError[] {
  const rows = store.rowsOf(pass.key);
  const from = pass.dequeueSeq ?? pass.triggers[0]?.enqueueSeq;
  if (from === undefined) return [];
  const to = pass.endSeq ?? Infinity;
  const out: PassError[] = [];
  // The key's rows are in seq order: find the first of the pass by bisection.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (store.seq.data[rows[mid]] < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < rows.length; i++) {
    const row = rows[i];
    const seq = store.seq.data[row];
    if (seq > to) break;
    if (store.stage.data[row] !== NOTE) continue;
    const e = store.readEvent(row);
    if (e.stage === "note" && (e.level === "E" || e.level === "F")) out.push({ seq, text: e.text });
  }
  return out;
}
