/**
 * Two runs side by side (e.g. hot-loop vs fix-hot-loop): per run, the counts that tell them apart
 * and the passes of its main Foo on a time axis that starts at that Foo's creation (its first watch
 * add), so the two timelines line up at the moment the Foo was created — or, for a Foo that
 * existed before the run (KeySummary.listed), at the informer's initial list that showed it.
 */
import type { KeySummary, Pass, TraceEvent } from "@loopscope/trace";
import { reconcileLabel } from "./expectations.ts";

export interface RunSide {
  /** The run's file name, without the folder it came from (see runName). */
  name: string;
  key: string | undefined;
  summary: KeySummary | undefined;
  /** µs of the Foo's creation (first watch add of the key, else its first event). */
  t0: number;
  /** The Foo existed before the run: t0 is the informer's initial list, not a creation. */
  listed: boolean;
  passes: { start: number; end: number; cause: Pass["cause"]; writes: number; changing: number }[];
  /** ms since t0 of each successful write. */
  writes: number[];
}

export interface SideSource {
  name: string;
  keys: string[];
  events: (key: string) => TraceEvent[];
  summary: (key: string) => KeySummary | undefined;
  passes: (key: string) => readonly Pass[];
}

/** The Foo a run is about: the first key with a Foo add, else the first key. */
export function mainKey(src: SideSource, prefer?: string): string | undefined {
  if (prefer && src.keys.includes(prefer)) return prefer;
  for (const k of src.keys) {
    if (src.events(k).some((e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add"))
      return k;
  }
  return src.keys[0];
}

/**
 * A run as the compare view names it: its file's name. The open sample is known by its path
 * ("traces/hot-loop.jsonl", for its link), the one picked beside it by its file
 * ("fix-hot-loop.jsonl"); the table headed one side with the folder and the other without.
 */
export function runName(name: string): string {
  return name.split("/").pop() || name;
}

export function runSide(src: SideSource, prefer?: string): RunSide {
  const key = mainKey(src, prefer);
  const name = runName(src.name);
  if (!key)
    return {
      name,
      key,
      summary: undefined,
      t0: 0,
      listed: false,
      passes: [],
      writes: [],
    };
  // The Foo's latest life, as its summary counts it: a live session may hold several.
  const summary = src.summary(key);
  const life = summary?.firstTs ?? -Infinity;
  const evs = src.events(key).filter((e) => e.ts >= life);
  const add = evs.find((e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add");
  const t0 = (add ?? evs[0])?.ts ?? 0;
  const ms = (ts: number) => (ts - t0) / 1000;
  return {
    name,
    key,
    summary,
    t0,
    listed: summary?.listed ?? false,
    passes: src
      .passes(key)
      .filter((p) => p.start >= life)
      .map((p) => ({
        start: ms(p.start),
        end: ms(p.end ?? p.start),
        cause: p.cause,
        writes: p.writeSeqs.length,
        changing: p.changingWrites,
      })),
    writes: evs.filter((e) => e.stage === "write" && (e.code ?? 200) < 400).map((e) => ms(e.ts)),
  };
}

/** The compared counts, labelled for the sides' Foos: created, listed at start, or one of each. */
export function compareRows(
  sides: readonly RunSide[],
): { label: string; value: (s: KeySummary) => number | string }[] {
  const listed = sides.filter((s) => s.summary).map((s) => s.listed);
  const count = (s: KeySummary) => s.reconcilesForCreate ?? "not quiescent";
  const reconcile =
    listed.length > 0 && listed.every((l) => l)
      ? { label: reconcileLabel(true), value: count }
      : listed.some((l) => l)
        ? {
            // One side's Foo was created, the other's listed: the listed count says so.
            label: "reconcile count for one create, or from the initial list",
            value: (s: KeySummary) => (s.listed ? `${count(s)} (from the initial list)` : count(s)),
          }
        : { label: reconcileLabel(false), value: count };
  return [
    { label: "passes", value: (s) => s.passes },
    { label: "writes", value: (s) => s.writes },
    { label: "changing writes", value: (s) => s.changingWrites },
    { label: "no-op writes", value: (s) => s.noopWrites },
    { label: "self-triggered passes", value: (s) => s.selfTriggered },
    { label: "conflicts (409)", value: (s) => s.conflicts },
    reconcile,
    { label: "hot loop", value: (s) => (s.hotLoop ? "yes" : "no") },
  ];
}

/** What the aligned timelines' 0 ms is: the Foos' creation, their listing at start, or either. */
export function originWords(sides: readonly RunSide[]): { mark: string; caption: string } {
  const listed = sides.filter((s) => s.key !== undefined).map((s) => s.listed);
  if (listed.length > 0 && listed.every((l) => l))
    return {
      mark: "Foo listed (initial list)",
      caption: "at the informer's initial list that showed it (it existed before the run)",
    };
  if (listed.some((l) => l))
    return {
      mark: "Foo created / listed",
      caption:
        "at its creation, or at the informer's initial list for a Foo that existed before the run",
    };
  return { mark: "Foo created", caption: "at its creation" };
}
