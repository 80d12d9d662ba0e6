/**
 * The exercise's Observe / Expect / Write down, computed from the trace for one Foo: the count of
 * each STAGE tag for its creation (the naive expectation is one of each), which of the
 * controller's writes came back as watch events, whether the second pass was a no-op, and the
 * reconcile count for one create. "Its creation" is the excerpt's span — the Foo's latest life,
 * from its add until it was quiescent — so this panel, the counts table and the excerpt agree.
 */
import {
  listInBrief,
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

/**
 * Whether a pass was a no-op: it ended synced with no write that changed anything. A pass that
 * stumbled on a 409 — it read the Foo before the cache held the controller's own last write, so
 * its write was refused, and it was requeued — is judged by the next pass that was not refused,
 * whatever queued it (the rate-limited retry, or an echo that came first): that pass is the same
 * reconcile on the state the refused one should have seen (with two workers, the echo's pass often
 * starts on the other worker before the echo reached the lister).
 */
export interface NoopVerdict {
  ok: boolean;
  /** The pass judged: the one asked about, or the first pass after it that did not stumble. */
  judged: Pass;
  /** The passes before `judged` that stumbled on a conflict. */
  stumbled: Pass[];
  /** The verdict in words, e.g. "pass 2's write was refused with 409 (…); the retry, pass 3, …". */
  why: string;
}

export interface Expectations {
  counts: { stage: Stage; observed: number }[];
  writes: WriteEcho[];
  /** Was the second pass a no-op? undefined until it (or the retry judged for it) has ended. */
  secondPass?: NoopVerdict;
  /** Did the first self-triggered pass find nothing to do? */
  firstSelf?: NoopVerdict;
  reconciles: number | null;
  /** The Foo existed before the run: its span starts at the informer's initial list, no create. */
  listed: boolean;
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
  // The echoes the Analyzer matched (a trigger names the write its watch event echoed), which
  // may come before the write's own line: with two workers the watch is often logged first.
  const watchBySeq = new Map<number, TraceEvent & { stage: "watch" }>();
  for (const e of mine) if (e.stage === "watch") watchBySeq.set(e.seq, e);
  const echoOf = new Map<number, TraceEvent & { stage: "watch" }>();
  for (const p of passes)
    for (const t of p.triggers) {
      const watch = t.watchSeq !== undefined ? watchBySeq.get(t.watchSeq) : undefined;
      if (t.writeSeq !== undefined && watch && !echoOf.has(t.writeSeq))
        echoOf.set(t.writeSeq, watch);
    }
  // An echo that queued no pass of its own (the key was queued already) is no trigger: matched by
  // resourceVersion then, a watch event after the write carrying the rv the write made.
  const watchByRv = new Map<string, TraceEvent & { stage: "watch" }>();
  for (const e of mine)
    if (e.stage === "watch" && e.rv !== undefined && !watchByRv.has(e.rv)) watchByRv.set(e.rv, e);
  const writes: WriteEcho[] = mine
    .filter((e): e is WriteEvent => e.stage === "write" && (e.code ?? 200) < 400)
    .map((w) => {
      const byRv = w.rv !== undefined && w.changed !== false ? watchByRv.get(w.rv) : undefined;
      const echo = echoOf.get(w.seq) ?? (byRv && byRv.seq > w.seq ? byRv : undefined);
      const r: WriteEcho = { write: w, noop: w.changed === false };
      if (echo) {
        r.echoSeq = echo.seq;
        r.echoWhat = `${echo.kind} ${echo.event}`;
      }
      return r;
    });
  const firstSelfAt = passes.findIndex((p) => p.cause === "self");
  const counts = STAGES.map((s) => ({ stage: s, observed: excerpt.counts[s] }));
  const yesNo = (b: boolean) => (b ? "yes" : "no");
  const secondPass = passes.length > 1 ? noopVerdict(passes, 1) : undefined;
  const firstSelf = firstSelfAt >= 0 ? noopVerdict(passes, firstSelfAt) : undefined;
  const writeDown = [
    excerpt.listed
      ? `${key}, listed by the informer at start (it existed before the run):`
      : `One create of ${key}:`,
    counts.map((c) => `STAGE/${c.stage} ×${c.observed}`).join(", "),
    // Of the writes that succeeded: a refused one (409) changed nothing to come back.
    `writes that came back as watch events: ${writes.filter((w) => w.echoSeq !== undefined).length} of the ${writes.length} that succeeded`,
    `second pass a no-op: ${secondPass ? `${yesNo(secondPass.ok)} (${secondPass.why})` : "not yet"}`,
    `${reconcileLabel(excerpt.listed)}: ${excerpt.reconciles ?? "not quiescent"}`,
  ].join("\n");
  const out: Expectations = {
    counts,
    writes,
    reconciles: excerpt.reconciles,
    listed: excerpt.listed,
    quiescent: summary.quiescent,
    hotLoop: summary.hotLoop,
    selfTriggered: passes.filter((p) => p.cause === "self").length,
    writeDown,
  };
  if (secondPass) out.secondPass = secondPass;
  if (firstSelf) out.firstSelf = firstSelf;
  return out;
}

/** A pass whose write was refused with 409, that changed nothing and was requeued. */
function stumbled(p: Pass): boolean {
  return p.changingWrites === 0 && p.conflicts > 0 && p.outcome === "requeued";
}

/** The verdict on passes[at] (see NoopVerdict); undefined while the pass to judge is open. */
export function noopVerdict(passes: readonly Pass[], at: number): NoopVerdict | undefined {
  let i = at;
  while (i < passes.length && passes[i]!.end !== undefined && stumbled(passes[i]!)) i++;
  const judged = passes[i];
  if (judged === undefined || judged.end === undefined) return undefined;
  const stumbles = passes.slice(at, i);
  const ok = judged.changingWrites === 0 && judged.conflicts === 0 && judged.outcome === "synced";
  const did = ok
    ? "found nothing to do"
    : judged.changingWrites > 0
      ? `changed ${judged.changedFields.length > 0 ? listInBrief(judged.changedFields) : `something (${judged.changingWrites} changing write${judged.changingWrites === 1 ? "" : "s"})`}`
      : judged.conflicts > 0
        ? "had a write refused with 409"
        : judged.outcome === "requeued"
          ? "failed and was requeued"
          : "changed nothing, but did not end synced";
  if (stumbles.length === 0)
    return { ok, judged, stumbled: stumbles, why: `pass ${judged.number} ${did}` };
  const first = stumbles[0]!;
  const last = stumbles[stumbles.length - 1]!;
  const refused =
    stumbles.length === 1
      ? `pass ${first.number}'s write was refused with 409 (the Foo it had read was already out of date)`
      : `passes ${first.number}–${last.number} had their writes refused with 409 (the Foo they had read was already out of date)`;
  const after = judged.cause === "retry" ? "the retry" : "the next pass";
  return {
    ok,
    judged,
    stumbled: stumbles,
    why: `${refused}; ${after}, pass ${judged.number}, ${did}`,
  };
}

/** What the reconcile count counts: one create, or — a Foo that existed before — its listing. */
export function reconcileLabel(listed: boolean): string {
  return listed ? "reconcile count from the initial list" : "reconcile count for one create";
}
