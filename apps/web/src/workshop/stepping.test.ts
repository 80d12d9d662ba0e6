import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { defaultWindow } from "../timeline/fit.ts";
import { step } from "../app/navigation.ts";
import { goToSeq } from "./stepping.ts";
import { stepSeqs, workshopData } from "./workshopData.ts";

const KEY = "default/example-foo";
const FIXTURE = fileURLToPath(
  new URL("../../../../packages/trace/fixtures/stage/create-canonical.log", import.meta.url),
);

/** The fixture's creation, and the same again a minute later with new resourceVersions. */
function twoLives(): [TraceEvent[], TraceEvent[]] {
  const life = readTraceText(readFileSync(FIXTURE, "utf8"), { year: 2026 }).events;
  const again = life.map((e) => {
    const x = { ...e, ts: e.ts + 60_000_000 } as Record<string, unknown>;
    for (const f of ["rv", "oldRv"])
      if (typeof x[f] === "string") x[f] = String(Number(x[f]) + 500);
    return x as unknown as TraceEvent;
  });
  return [life, again];
}

/** The exercise's delete + apply: the fixture's creation twice, a minute apart, seqs renumbered. */
function recreated(note?: string): TraceSession {
  const [life, again] = twoLives();
  const session = new TraceSession({ kind: "replay", name: "recreated.jsonl" });
  const opening: TraceEvent[] = note
    ? [{ seq: 0, ts: life[0]!.ts - 1000, stage: "note", key: "", text: note, src: "scenario" }]
    : [];
  session.push([...opening, ...life, ...again].map((e, i) => ({ ...e, seq: i + 1 })));
  return session;
}

const shown = (session: TraceSession, view: ViewStore): [number, number] =>
  view.get().window ?? defaultWindow(session, view.get().selectedKeys);

describe("moving to an event keeps it in view", () => {
  it("the step-through's first step, before the window the timeline opened on (the latest life)", () => {
    const session = recreated();
    const view = new ViewStore({ selectedKeys: [KEY] });
    const ts = session.store.ts.get(session.store.rowOfSeq(1));
    // The timeline opens on the Foo's latest creation, a minute after its first event.
    expect(shown(session, view)[0]).toBeGreaterThan(ts);
    goToSeq(session, view, 1);
    const [a, b] = shown(session, view);
    expect(ts).toBeGreaterThanOrEqual(a);
    expect(ts).toBeLessThanOrEqual(b);
    expect(view.get().playhead).toBe(ts);
  });

  it("the step is the one selection: a pass selected before lets go (its arrows ran past the playhead)", () => {
    const session = recreated();
    const passes = session.passesOf(KEY);
    const later = passes[passes.length - 1]!;
    const view = new ViewStore({
      selectedKeys: [KEY],
      selectedPass: { key: KEY, index: later.index },
    });
    goToSeq(session, view, passes[passes.length - 3]!.dequeueSeq!, { zoomToPass: true });
    expect(view.get().selectedPass).toBeUndefined();
  });

  it("stepping (the ◀ step ▶ buttons) from the first event", () => {
    const session = recreated();
    const view = new ViewStore({ selectedKeys: [KEY] });
    step(session, view, 1);
    const ts = session.store.ts.get(session.store.rowOfSeq(view.get().selectedSeq!));
    const [a, b] = shown(session, view);
    expect(ts).toBeGreaterThanOrEqual(a);
    expect(ts).toBeLessThanOrEqual(b);
  });

  it("the step-through zooms to a pass that is a sliver of the window: it fills the middle third", () => {
    const session = recreated();
    const view = new ViewStore({ selectedKeys: [KEY], window: [0, 0] });
    const passes = session.passesOf(KEY);
    const p = passes[passes.length - 2]!;
    // A window a thousand times the pass, with the pass inside it.
    const dur = p.end! - p.start;
    view.set({ window: [p.start - 500 * dur, p.end! + 500 * dur] });
    goToSeq(session, view, p.dequeueSeq!, { zoomToPass: true });
    const [a, b] = view.get().window!;
    expect(a).toBeLessThanOrEqual(p.start);
    expect(b).toBeGreaterThanOrEqual(p.end!);
    expect((p.end! - p.start) / (b - a)).toBeGreaterThan(0.25);
    // A pass already wide in the window is left as it is.
    const wide: [number, number] = [a, b];
    goToSeq(session, view, p.endSeq!, { zoomToPass: true });
    expect(view.get().window).toEqual(wide);
  });

  it("an event already in view leaves a default window the default", () => {
    const session = recreated();
    const view = new ViewStore({ selectedKeys: [KEY] });
    const [a, b] = shown(session, view);
    let row = session.store.length - 1;
    while (!(session.store.ts.get(row) > a && session.store.ts.get(row) < b)) row--;
    goToSeq(session, view, session.store.seq.get(row));
    expect(view.get().selectedSeq).toBe(session.store.seq.get(row));
    expect(view.get().window).toBeUndefined();
  });
});

describe("where the step-through starts", () => {
  /** A scenario's note about KEY (its seq is given when the trace is numbered). */
  const note = (ts: number, text: string): TraceEvent => ({
    seq: 0,
    ts,
    stage: "note",
    key: KEY,
    text,
    src: "scenario",
  });

  const firstStep = (session: TraceSession) => {
    const data = workshopData(session, KEY);
    const seq = stepSeqs(data, KEY, session.summaryOf(KEY)!.firstTs)[0]!;
    return data.events[data.indexOf.get(seq)!]!;
  };

  it("at a re-created Foo's latest creation, not its first life an hour ago", () => {
    const session = recreated();
    const first = firstStep(session);
    expect(first).toMatchObject({ stage: "watch", kind: "Foo", event: "add" });
    expect(first.ts).toBe(session.summaryOf(KEY)!.firstTs);
    expect(first.seq).toBeGreaterThan(1);
  });

  it("at the first life's note when the scenario's own delete lies between the lives", () => {
    // delete-and-recreate's notes: apply, (life 1), delete, apply, (life 2).
    const [life, again] = twoLives();
    const session = new TraceSession({ kind: "replay", name: "dr.jsonl" });
    session.push(
      [
        note(life[0]!.ts - 1000, "scenario: kubectl apply Foo example-foo (replicas 1)"),
        ...life,
        note(again[0]!.ts - 2000, "scenario: kubectl delete foo example-foo"),
        note(again[0]!.ts - 1000, "scenario: kubectl apply Foo example-foo (replicas 1)"),
        ...again,
      ].map((e, i) => ({ ...e, seq: i + 1 })),
    );
    expect(firstStep(session)).toMatchObject({ seq: 1, stage: "note" });
    // Without the scenario's delete (a Foo re-created by hand), the latest life's own note.
    const byHand = new TraceSession({ kind: "replay", name: "hand.jsonl" });
    byHand.push(
      [
        note(life[0]!.ts - 1000, "scenario: kubectl apply Foo example-foo (replicas 1)"),
        ...life,
        note(again[0]!.ts - 1000, "scenario: kubectl apply Foo example-foo (replicas 1)"),
        ...again,
      ].map((e, i) => ({ ...e, seq: i + 1 })),
    );
    expect(firstStep(byHand)).toMatchObject({ seq: life.length + 2, stage: "note" });
  });

  it("at a scenario's setup note right before its apply (slow-api: writes slowed first)", () => {
    const [life] = twoLives();
    const session = new TraceSession({ kind: "replay", name: "slow.jsonl" });
    session.push(
      [
        note(life[0]!.ts - 1000, "scenario: every write now takes 250 ms more"),
        note(life[0]!.ts - 500, "scenario: kubectl apply Foo example-foo"),
        ...life,
      ].map((e, i) => ({ ...e, seq: i + 1 })),
    );
    expect(firstStep(session)).toMatchObject({ seq: 1, stage: "note" });
  });

  it("at the scenario's opening note when a scenario deleted and re-created it", () => {
    const session = recreated("scenario: delete and re-create example-foo");
    expect(firstStep(session)).toMatchObject({ seq: 1, stage: "note" });
  });
});
