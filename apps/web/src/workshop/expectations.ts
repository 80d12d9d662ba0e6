/**
 * The exercise's Observe / Expect / Write down, computed from the trace for one Foo: the count of
 * each STAGE tag for its creation (the naive expectation is one of each), which of the
 * controller's writes came back as watch events, whether the second pass was a no-op, and the
 * reconcile count for one create. "Its creation" is the excerpt's span — the Foo's latest life,
 * from its add until it was quiescent — so this panel, the counts table and the excerpt agree.
 */
import {
  STAGES,
  type Excerpt,
  type KeySummary,
  type Pass,
  type Stage,
  type TraceEvent,
  type WriteEvent,
} from "@loopscope/trace";

export interface WriteEcho {
  write: WriteEvent;
  /** seq of the watch event carrying the write's resourceVersion, if one came. */
  echoSeq?: number;
  echoWhat?: string;
  /** The API said nothing changed (same rv): no echo is expected. */
  noop: boolean;
}

export interface Expectations {
  counts: { stage: Stage; observed: number }[];
  writes: WriteEcho[];
  /** The key's second pass (pass 2): changed nothing? undefined until there is one. */
  secondPassNoop?: boolean;
  secondPass?: Pass;
  /** The first self-triggered pass changed nothing? */
  firstSelfNoop?: boolean;
  reconciles: number | null;
  quiescent: boolean;
  hotLoop: boolean;
  selfTriggered: number;
  writeDown: string;
}

export function expectations(excerpt: Excerpt, summary: KeySummary): Expectations {
  const key = excerpt.key;
  const mine: TraceEvent[] = [];
  const passes: Pass[] = [];
  for (const r of excerpt.rows) {
    if (r.kind === "event") mine.push(r.event);
    else passes.push(r.pass);
  }
  const watchByRv = new Map<string, TraceEvent & { stage: "watch" }>();
  for (const e of mine)
    if (e.stage === "watch" && e.rv !== undefined && !watchByRv.has(e.rv)) watchByRv.set(e.rv, e);
  const writes: WriteEcho[] = mine
    .filter((e): e is WriteEvent => e.stage === "write" && (e.code ?? 200) < 400)
    .map((w) => {
      const echo = w.rv !== undefined && w.changed !== false ? watchByRv.get(w.rv) : undefined;
      const r: WriteEcho = { write: w, noop: w.changed === false };
      if (echo && echo.seq > w.seq) {
        r.echoSeq = echo.seq;
        r.echoWhat = `${echo.kind} ${echo.event}`;
      }
      return r;
    });
  const second = passes[1];
  const firstSelf = passes.find((p) => p.cause === "self" && p.end !== undefined);
  // A no-op finds nothing to do and ends synced: a pass whose write failed (a 409, requeued)
  // changed nothing too, but it is the opposite of the lesson.
  const noop = (p: Pass) => p.changingWrites === 0 && p.conflicts === 0 && p.outcome === "synced";
  const counts = STAGES.map((s) => ({ stage: s, observed: excerpt.counts[s] }));
  const yesNo = (b: boolean | undefined) => (b === undefined ? "not yet" : b ? "yes" : "no");
  const writeDown = [
    `One create of ${key}:`,
    counts.map((c) => `STAGE/${c.stage} ×${c.observed}`).join(", "),
    `writes that came back as watch events: ${writes.filter((w) => w.echoSeq !== undefined).length} of ${writes.length}`,
    `second pass a no-op: ${yesNo(second && second.end !== undefined ? noop(second) : undefined)}`,
    `reconcile count for one create: ${excerpt.reconciles ?? "not quiescent yet"}`,
  ].join("\n");
  const out: Expectations = {
    counts,
    writes,
    reconciles: excerpt.reconciles,
    quiescent: summary.quiescent,
    hotLoop: summary.hotLoop,
    selfTriggered: passes.filter((p) => p.cause === "self").length,
    writeDown,
  };
  if (second && second.end !== undefined) {
    out.secondPass = second;
    out.secondPassNoop = noop(second);
  }
  if (firstSelf) out.firstSelfNoop = noop(firstSelf);
  return out;
}
