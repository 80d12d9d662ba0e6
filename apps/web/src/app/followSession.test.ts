import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TraceSession } from "../store/session.ts";
import { followSession, LOADING_VIEW_MS } from "./followSession.ts";

let seq = 0;
const row = (session: TraceSession) =>
  session.push([{ seq: ++seq, ts: seq, key: "ns/a", stage: "read" }]);

/** A session loading a file, told of progress every `stepMs` for `ms`, then done. */
function load(session: TraceSession, stepMs: number, ms: number): void {
  session.setProgress({ bytes: 0, total: ms, done: false });
  for (let t = stepMs; t < ms; t += stepMs) {
    vi.advanceTimersByTime(stepMs);
    row(session);
    session.setProgress({ bytes: t, total: ms, done: false });
  }
  vi.advanceTimersByTime(stepMs);
  session.setProgress({ bytes: ms, total: ms, done: true });
}

describe("followSession", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => vi.useRealTimers());

  it("passes a loading file on once a second, its start, first rows and end at once", () => {
    const session = new TraceSession({ kind: "replay" });
    const at: number[] = [];
    followSession(session, () => at.push(performance.now()), { throttleMs: 250 });
    const t0 = performance.now();
    load(session, 50, 5000);
    const end = performance.now();
    vi.advanceTimersByTime(5000);
    expect(at[0]).toBe(t0);
    // The change that ended the load, at the view's own rate (250 ms) at the latest.
    expect(at[at.length - 1]).toBeGreaterThanOrEqual(end);
    expect(at[at.length - 1]).toBeLessThanOrEqual(end + 250);
    // The start (no rows yet) and the first rows at once, then once a second.
    expect(at[1]).toBe(t0 + 50);
    for (let i = 2; i < at.length - 1; i++)
      expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(LOADING_VIEW_MS);
    expect(at.length).toBeGreaterThanOrEqual(6);
    expect(at.length).toBeLessThanOrEqual(8);
  });

  it("does not hold the end of a load back by the loading rate", () => {
    const session = new TraceSession({ kind: "replay" });
    const at: number[] = [];
    followSession(session, () => at.push(performance.now()), { throttleMs: 250 });
    row(session); // passed on at once
    vi.advanceTimersByTime(100);
    session.setProgress({ bytes: 5, total: 10, done: false }); // held until 1 s
    vi.advanceTimersByTime(100);
    const end = performance.now();
    session.setProgress({ bytes: 10, total: 10, done: true }); // due at 250 ms, not 1 s
    vi.advanceTimersByTime(2000);
    expect(at.map((t) => t - at[0])).toEqual([0, 250]);
    expect(at[1]).toBeGreaterThan(end);
  });

  it("passes the first rows on at once (first paint), however soon after the load began", () => {
    const session = new TraceSession({ kind: "replay" });
    let n = 0;
    followSession(session, () => n++);
    session.setProgress({ bytes: 0, total: 10, done: false });
    expect(n).toBe(1);
    vi.advanceTimersByTime(10);
    row(session);
    expect(n).toBe(2);
    vi.advanceTimersByTime(10);
    row(session);
    expect(n).toBe(2);
  });

  it("keeps its own rate while loading for a view that follows loading", () => {
    const session = new TraceSession({ kind: "replay" });
    let n = 0;
    followSession(session, () => n++, { throttleMs: 250, followLoading: true });
    load(session, 50, 5000);
    expect(n).toBeGreaterThanOrEqual(19);
  });

  it("holds nothing back once the file is loaded", () => {
    const session = new TraceSession({ kind: "replay" });
    let n = 0;
    followSession(session, () => n++);
    load(session, 50, 1000);
    const before = n;
    for (let i = 0; i < 10; i++) session.setProgress({ bytes: 1000, total: 1000, done: true });
    expect(n).toBe(before + 10);
  });

  it("stops when unsubscribed, pending update included", () => {
    const session = new TraceSession({ kind: "replay" });
    let n = 0;
    const stop = followSession(session, () => n++, { throttleMs: 250 });
    row(session);
    session.setProgress({ bytes: 1, total: 10, done: false });
    expect(n).toBe(1);
    stop();
    vi.advanceTimersByTime(5000);
    expect(n).toBe(1);
  });
});
