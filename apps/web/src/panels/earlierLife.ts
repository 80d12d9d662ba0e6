/**
 * Whether a finding is about an earlier life of its Foo (deleted and created again since): its
 * latest occurrence came before the Foo's latest life began, where the Foo's summary counts from.
 * The latest, not the first: a conflict met in both lives is about the current one too.
 */
import type { Finding } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";

export function aboutEarlierLife(session: TraceSession, f: Finding): boolean {
  const from = f.key ? session.summaryOf(f.key)?.firstTs : undefined;
  const seq = f.lastSeq ?? f.seq;
  const row = seq !== undefined ? session.store.rowOfSeq(seq) : -1;
  return from !== undefined && row >= 0 && session.store.ts.get(row) < from;
}
