import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readTraceText, type TraceEvent } from "@loopscope/trace";
import { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { defaultWindow } from "../timeline/fit.ts";
import { step } from "../app/navigation.ts";
import { goToSeq } from "./stepping.ts";

const KEY = "default/example-foo";
const FIXTURE = fileURLToPath(
  new URL("../../../../packages/trace/fixtures/stage/create-canonical.log", import.meta.url),
);

/** The exercise's delete + apply: the fixture's creation twice, a minute apart, seqs renumbered. */
function recreated(): TraceSession {
  const life = readTraceText(readFileSync(FIXTURE, "utf8"), { year: 2026 }).events;
  const again = life.map((e) => {
    const x = { ...e, ts: e.ts + 60_000_000 } as Record<string, unknown>;
    for (const f of ["rv", "oldRv"])
      if (typeof x[f] === "string") x[f] = String(Number(x[f]) + 500);
    return x as unknown as TraceEvent;
  });
  const session = new TraceSession({ kind: "replay", name: "recreated.jsonl" });
  session.push([...life, ...again].map((e, i) => ({ ...e, seq: i + 1 })));
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

  it("stepping (the ◀ step ▶ buttons) from the first event", () => {
    const session = recreated();
    const view = new ViewStore({ selectedKeys: [KEY] });
    step(session, view, 1);
    const ts = session.store.ts.get(session.store.rowOfSeq(view.get().selectedSeq!));
    const [a, b] = shown(session, view);
    expect(ts).toBeGreaterThanOrEqual(a);
    expect(ts).toBeLessThanOrEqual(b);
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
