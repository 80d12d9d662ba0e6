/**
 * The write a pass's error says the API refused, where the log shows no answer for it: a pass
 * that counted a 409 (from its error text: the Analyzer's `conflicts`) while no write line of it
 * said a code or a reason — a learner prints STAGE/write before the call, or without its result.
 * It is the pass's last write: the reconcile returns at the first call that fails.
 */
import type { WriteEvent } from "../event.ts";
import type { Pass } from "./model.ts";

export function refusedWrite(
  pass: Pass,
  writeOf: (seq: number) => WriteEvent | undefined,
): number | undefined {
  if (pass.conflicts === 0 || pass.writeSeqs.length === 0) return undefined;
  if (pass.outcome !== "requeued" && pass.outcome !== "dropped") return undefined;
  for (const seq of pass.writeSeqs) {
    const w = writeOf(seq);
    if (w === undefined || w.code !== undefined || w.reason !== undefined) return undefined;
  }
  const last = pass.writeSeqs[pass.writeSeqs.length - 1]!;
  return pass.changingWriteSeqs?.includes(last) ? undefined : last;
}
