/**
 * What the workshop views derive from the open trace: every event (rebuilt from the columnar
 * store), its narration (packages/trace's narration, with the session's own analysis as context)
 * and the machinery state after it. Recomputed when the session's version changes; workshop
 * traces are small, and past CAP events only the focused Foo's events are narrated.
 */
import {
  HOT_LOOP_THRESHOLD,
  machineryStates,
  narrate,
  type MachineryState,
  type Narration,
  type TraceEvent,
} from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";

export const CAP = 20_000;

export interface WorkshopData {
  events: TraceEvent[];
  narrations: Narration[];
  states: MachineryState[];
  /** seq → index into the three arrays. */
  indexOf: Map<number, number>;
  /**
   * How many worker rows the diagram draws: the controller's workers where the page watches it run
   * (idle ones too), else the highest worker id the trace shows (at least 1).
   */
  workers: number;
}

/** Events already rebuilt per session: the store only grows, so only new rows are rebuilt. */
const rebuilt = new WeakMap<TraceSession, TraceEvent[]>();

export function workshopData(
  session: TraceSession,
  focusKey: string | undefined,
  /** The live controller's workers (ServerInfo.workers), if the session is its trace. */
  liveWorkers?: number,
): WorkshopData {
  const store = session.store;
  let events: TraceEvent[];
  if (store.length <= CAP || !focusKey) {
    const cached = rebuilt.get(session) ?? [];
    for (let r = cached.length; r < Math.min(store.length, CAP); r++) cached.push(store.event(r));
    rebuilt.set(session, cached);
    events = cached.slice();
  } else {
    events = Array.from(store.rowsOf(focusKey), (r) => store.event(r));
  }
  // The session's analysis runs with the Analyzer's defaults (replay/analysisFeed.ts).
  const narrations = narrate(events, {
    passes: (k) => session.passesOf(k),
    hotLoopThreshold: HOT_LOOP_THRESHOLD,
  });
  const states = machineryStates(events);
  const indexOf = new Map<number, number>();
  let workers = session.source.kind === "live" ? (liveWorkers ?? 1) : 1;
  events.forEach((e, i) => {
    indexOf.set(e.seq, i);
    const w = (e as { worker?: number }).worker;
    if (typeof w === "number" && w > workers) workers = w;
  });
  return { events, narrations, states, indexOf, workers };
}

/**
 * The events a step-through visits: the focused Foo's, plus scenario notes and orphans (and a
 * scenario note tied to another Foo, just before this one's life began), from the start of its
 * latest run — the Foo's latest life (`lifeStart`, its summary's firstTs), or the
 * scenario note before it, so a scenario that deletes and re-creates the Foo tells its whole
 * story while a Foo re-created by hand an hour later starts at its new creation.
 */
export function stepSeqs(
  data: WorkshopData,
  focusKey: string | undefined,
  lifeStart?: number,
): number[] {
  // A scenario's note tied to another Foo (a burst's, to its first) tells this one's start too,
  // when it came just before this Foo's life began.
  const setup = (e: TraceEvent) =>
    lifeStart !== undefined &&
    isScenarioNote(e) &&
    e.ts <= lifeStart &&
    lifeStart - e.ts <= SETUP_US;
  const visited = data.events.filter(
    (e) => !focusKey || e.key === focusKey || e.key === "" || setup(e),
  );
  // Nothing narrated yet (a reload that opens the workshop before the trace is in).
  if (visited.length === 0) return [];
  let from = 0;
  if (focusKey && lifeStart !== undefined) {
    from = Math.max(
      0,
      visited.findIndex((e) => e.key === focusKey && e.ts >= lifeStart),
    );
    from = noteBefore(visited, from);
    // A scenario that deleted the Foo and created it again (its "kubectl delete foo" note lies
    // between the two lives, with no other creation between) tells both lives: start before the
    // first.
    const add = (e: TraceEvent) =>
      e.key === focusKey && e.stage === "watch" && e.kind === "Foo" && e.event === "add";
    let del = -1;
    // From `from` itself: it may be that delete note, when it came right before the apply.
    for (let i = from; i >= 0 && del < 0 && (i === from || !add(visited[i]!)); i--) {
      const e = visited[i]!;
      if (
        e.stage === "note" &&
        isScenarioNote(e) &&
        e.key === focusKey &&
        e.text.includes("kubectl delete foo")
      )
        del = i;
    }
    if (del >= 0) {
      let before = del - 1;
      while (before >= 0 && !add(visited[before]!)) before--;
      if (before >= 0) from = noteBefore(visited, before);
    }
  }
  return visited.slice(from).map((e) => e.seq);
}

/**
 * The scenario note nearest before visited[at] (the step that says what the scenario did), with
 * the scenario notes right before it (a setup such as "every write now takes 250 ms more" comes
 * just before "kubectl apply"), else at.
 */
function noteBefore(visited: readonly TraceEvent[], at: number): number {
  for (let i = at - 1; i >= 0; i--) {
    if (!isScenarioNote(visited[i]!)) continue;
    while (
      i > 0 &&
      isScenarioNote(visited[i - 1]!) &&
      visited[i]!.ts - visited[i - 1]!.ts <= SETUP_US
    )
      i--;
    return i;
  }
  return at;
}

/** How far apart a scenario's notes may be to be told as one step after another. */
const SETUP_US = 10_000_000;

function isScenarioNote(e: TraceEvent): boolean {
  return e.stage === "note" && (e.src === "scenario" || e.text.startsWith("scenario: "));
}
