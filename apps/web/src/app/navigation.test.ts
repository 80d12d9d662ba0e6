import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { ViewStore } from "../store/viewState.ts";
import { twoLivesSession } from "../testing/twoLives.ts";
import { fit, step, stepPass, togglePlay } from "./navigation.ts";

const FIXTURE = fileURLToPath(
  new URL("../../../../packages/trace/fixtures/stage/create-canonical.log", import.meta.url),
);
const KEY = "default/example-foo";

describe("navigation", () => {
  it("steps through the selected Foo's stage events in time order, moving the playhead", () => {
    const session = sessionFromText(readFileSync(FIXTURE, "utf8"));
    const view = new ViewStore({ selectedKeys: [KEY] });
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      step(session, view, 1);
      const row = session.store.rowOfSeq(view.get().selectedSeq!);
      seen.push(session.store.event(row).stage);
      expect(view.get().playhead).toBe(session.store.ts.get(row));
    }
    expect(seen).toEqual(["watch", "enqueue", "dequeue", "read", "write"]);
    step(session, view, -1);
    const back = session.store.rowOfSeq(view.get().selectedSeq!);
    expect(session.store.event(back).stage).toBe("read");
    // Back, the playhead follows: the write after it is not drawn as arrived.
    expect(view.get().playhead).toBe(session.store.ts.get(back));
  });

  it("play starts from the beginning and pauses; fit covers every event of the Foo", () => {
    const session = sessionFromText(readFileSync(FIXTURE, "utf8"));
    const view = new ViewStore({ selectedKeys: [KEY] });
    togglePlay(session, view);
    expect(view.get().playing).toBe(true);
    expect(view.get().playhead).toBe(session.store.timeExtent()![0]);
    togglePlay(session, view);
    expect(view.get().playing).toBe(false);
    fit(session, view);
    const [a, b] = view.get().window!;
    const [lo, hi] = session.store.timeExtent()!;
    expect(a).toBeLessThan(lo);
    expect(b).toBeGreaterThan(hi);
  });

  it("selects passes one after another from the keyboard, from the selected event on", () => {
    const session = sessionFromText(readFileSync(FIXTURE, "utf8"));
    const view = new ViewStore({ selectedKeys: [KEY] });
    const passes = session.passesOf(KEY);
    expect(passes.length).toBeGreaterThan(2);
    stepPass(session, view, 1);
    expect(view.get().selectedPass).toEqual({ key: KEY, index: 0 });
    stepPass(session, view, 1);
    expect(view.get().selectedPass).toEqual({ key: KEY, index: 1 });
    stepPass(session, view, -1);
    expect(view.get().selectedPass).toEqual({ key: KEY, index: 0 });
    stepPass(session, view, -1); // none before the first: stays
    expect(view.get().selectedPass).toEqual({ key: KEY, index: 0 });
    const [a, b] = view.get().window ?? [-Infinity, Infinity];
    expect(passes[0].start).toBeGreaterThanOrEqual(a);
    expect(passes[0].start).toBeLessThanOrEqual(b);

    // From a selected event: the first pass that starts after it.
    const mid = new ViewStore({ selectedKeys: [KEY], selectedSeq: passes[1].dequeueSeq });
    stepPass(session, mid, 1);
    expect(mid.get().selectedPass).toEqual({ key: KEY, index: 2 });
    expect(mid.get().selectedSeq).toBeUndefined();
  });

  it("selects a pass past the playhead (a replay stepped halfway): the playhead goes on to its end", () => {
    const session = sessionFromText(readFileSync(FIXTURE, "utf8"));
    const passes = session.passesOf(KEY);
    const p = passes[2]!;
    const before = session.store.ts.get(session.store.rowOfSeq(p.dequeueSeq!)) - 1;
    const view = new ViewStore({ selectedKeys: [KEY], playhead: before });
    stepPass(session, view, 1);
    expect(view.get().selectedPass).toEqual({ key: KEY, index: p.index });
    expect(view.get().playhead).toBe(p.end);
    // Back to a pass already drawn: the playhead stays.
    stepPass(session, view, -1);
    expect(view.get().selectedPass).toEqual({ key: KEY, index: passes[1]!.index });
    expect(view.get().playhead).toBe(p.end);
  });

  it("steps on from the selected pass: → its first event, ← the one before, the event alone selected", () => {
    const session = sessionFromText(readFileSync(FIXTURE, "utf8"));
    const passes = session.passesOf(KEY);
    const p = passes[2]!;
    const at = (v: ViewStore) => session.store.rowOfSeq(v.get().selectedSeq!);
    // The playhead is at the end (as after a replay loaded): stepping from it went nowhere.
    const end = session.store.timeExtent()![1];
    const fwd = new ViewStore({
      selectedKeys: [KEY],
      selectedPass: { key: KEY, index: 2 },
      playhead: end,
    });
    step(session, fwd, 1);
    expect(fwd.get().selectedSeq).toBe(p.dequeueSeq);
    expect(fwd.get().selectedPass).toBeUndefined();
    const back = new ViewStore({
      selectedKeys: [KEY],
      selectedPass: { key: KEY, index: 2 },
      playhead: end,
    });
    step(session, back, -1);
    const row = at(back);
    expect(session.store.ts.get(row)).toBeLessThanOrEqual(p.start);
    expect(session.store.seq.get(row)).toBeLessThan(p.dequeueSeq!);
    expect(back.get().selectedPass).toBeUndefined();
    // The one before the dequeue is the event just before it among the Foo's stage events.
    step(session, back, 1);
    expect(back.get().selectedSeq).toBe(p.dequeueSeq);
  });

  it("steps first to the first event the timeline shows: a Foo created again, its latest life", () => {
    const { session, n } = twoLivesSession();
    // Its first stage event: the Foo's add (seq 1 is the recording's note).
    const add = session.store.rowOfSeq(2);
    expect(session.store.event(add)).toMatchObject({ stage: "watch", kind: "Foo", event: "add" });
    const view = new ViewStore({ selectedKeys: [KEY] });
    step(session, view, 1);
    // The timeline opens on the second creation; the first step is that life's add.
    expect(view.get().selectedSeq).toBe(n + 2);
    // Shown the first life (the user's window), the step starts there.
    const first = session.store.ts.get(add);
    const zoomed = new ViewStore({ selectedKeys: [KEY], window: [first - 10, first + 1e6] });
    step(session, zoomed, 1);
    expect(zoomed.get().selectedSeq).toBe(2);
    // A window after every event: from the first.
    const past = new ViewStore({ selectedKeys: [KEY], window: [first + 1e9, first + 2e9] });
    step(session, past, 1);
    expect(past.get().selectedSeq).toBe(2);
  });
});
