/**
 * The errors of a pass: the one it ended with (a requeued pass's `done` carries the error its
 * reconcile returned — a 409, "already exists", or the text of an "Error syncing" line), and
 * errors the controller logged on the way. sample-controller logs some failures with HandleError
 * and returns nil (a Foo with no deploymentName; the Foo gone from the lister), so the pass ends
 * "synced" — only its error line tells. Read from the store's rows of the pass, not kept in the
 * analysis: a pass has few events, and only the panels on screen ask.
 */
import { KIND_CODES } from "@loopscope/trace";
import type { Pass } from "@loopscope/trace";
import type { TraceStore } from "./traceStore.ts";

const NOTE = KIND_CODES.indexOf("note");
const DONE = KIND_CODES.indexOf("done");

export interface PassError {
  seq: number;
  text: string;
}

export function passErrors(store: TraceStore, pass: Pass): PassError[] {
  const rows = store.rowsOf(pass.key);
  // A pass read from its end line alone (a log without STAGE lines) is that line.
  const from = pass.dequeueSeq ?? pass.triggers[0]?.enqueueSeq ?? pass.endSeq;
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
    const stage = store.stage.data[row];
    if (stage !== NOTE && (stage !== DONE || seq !== pass.endSeq)) continue;
    const e = store.readEvent(row);
    if (e.stage === "note" && (e.level === "E" || e.level === "F")) out.push({ seq, text: e.text });
    if (e.stage === "done" && e.error) out.push({ seq, text: e.error });
  }
  return out;
}
