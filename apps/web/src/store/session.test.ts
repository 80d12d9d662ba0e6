import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import { buildExcerpt, readTraceText, renderExcerptText } from "@loopscope/trace";
import { HOT_KEY, hotLoopTrace } from "../../../../packages/trace/src/testing/hot-loop.ts";
import { MAX_EXCERPT_EVENTS } from "./excerptPort.ts";
import type { LogLines } from "./logLines.ts";
import { TraceSession } from "./session.ts";

const FRAME_MS = 16;
let seq = 0;
const row = (session: TraceSession) =>
  session.push([{ seq: ++seq, ts: seq, key: "ns/a", stage: "read" }]);

describe("TraceSession notifications", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    vi.stubGlobal("requestAnimationFrame", (cb: FrameRequestCallback) =>
      setTimeout(() => cb(performance.now()), FRAME_MS),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("tells views of a loading file at most every 250 ms, one frame after the change", () => {
    const session = new TraceSession({ kind: "replay" });
    const at: number[] = [];
    session.subscribe(() => at.push(performance.now()));
    session.setProgress({ bytes: 0, total: 100, done: false });
    for (let i = 0; i < 50; i++) {
      row(session);
      vi.advanceTimersByTime(20);
    }
    vi.advanceTimersByTime(1000);
    expect(at[0]).toBe(FRAME_MS);
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(250);
    expect(at.length).toBeGreaterThanOrEqual(4);
    // Every change was heard: the last notification came after the last row.
    expect(at[at.length - 1]).toBeGreaterThanOrEqual(49 * 20);
  });

  it("tells views that a load ended in the next frame, not when a loading wait runs out", () => {
    const session = new TraceSession({ kind: "replay" });
    const at: number[] = [];
    session.subscribe(() => at.push(performance.now()));
    session.setProgress({ bytes: 0, total: 10, done: false });
    vi.advanceTimersByTime(FRAME_MS); // heard at once
    row(session); // held back for the rest of 250 ms
    vi.advanceTimersByTime(20);
    const end = performance.now();
    session.setProgress({ bytes: 10, total: 10, done: true });
    vi.advanceTimersByTime(1000);
    expect(at).toEqual([FRAME_MS, end + FRAME_MS]);
  });

  it("tells views once per frame however many batches arrive in it", () => {
    const session = new TraceSession({ kind: "live" });
    let n = 0;
    session.subscribe(() => n++);
    for (let i = 0; i < 10; i++) row(session);
    vi.advanceTimersByTime(FRAME_MS);
    expect(n).toBe(1);
    row(session);
    row(session);
    vi.advanceTimersByTime(FRAME_MS);
    expect(n).toBe(2);
  });
});

describe("TraceSession log lines kept elsewhere", () => {
  const FIXTURE = new URL(
    "../../../../packages/trace/fixtures/stage/create-canonical.log",
    import.meta.url,
  );

  it("reads the lines its rows do not keep, for the details and the excerpt", async () => {
    const { events } = readTraceText(readFileSync(FIXTURE, "utf8"));
    const byLine = new Map(events.map((e) => [e.line!, e.raw!]));
    const asked: number[][] = [];
    const source: LogLines = {
      read: async (lines) => {
        const n = [...lines];
        asked.push(n);
        return new Map(n.flatMap((l) => (byLine.has(l) ? [[l, byLine.get(l)!]] : [])));
      },
    };
    const session = new TraceSession({ kind: "replay" });
    session.readLinesFrom(source);
    session.push(events.map(({ raw: _raw, ...e }) => e));
    let bumps = 0;
    session.subscribe(() => bumps++);

    const row = session.store.rowsOf("default/example-foo")[0];
    expect(session.logLine(row)).toEqual({ reading: true });
    expect(session.logLine(row)).toEqual({ reading: true }); // asked once, not per render
    const key = "default/example-foo";
    expect(session.excerpt(key)?.pending).toBe(true);
    await vi.waitFor(() => expect(session.excerpt(key)?.pending).toBeUndefined());
    await vi.waitFor(() => expect(session.logLine(row).line).toBeDefined());
    expect(session.logLine(row)).toEqual({ line: byLine.get(session.store.readEvent(row).line!) });
    expect(session.excerpt(key)?.text).toContain('"Successfully synced" objectName=');
    expect(asked.filter((a) => a.length === 1)).toHaveLength(1);
    expect(bumps).toBeGreaterThan(0);
  });

  it("rows that keep their lines need no source", () => {
    const { events } = readTraceText(readFileSync(FIXTURE, "utf8"));
    const session = new TraceSession({ kind: "replay" });
    session.push(events);
    const row = session.store.rowsOf("default/example-foo")[0];
    expect(session.logLine(row).line).toBe(session.store.readEvent(row).raw);
    expect(session.excerpt("default/example-foo")?.pending).toBeUndefined();
  });
});

describe("TraceSession excerpt of a key longer than the events it reads", () => {
  it("says what the CLI says: the hot loop's length and the passes in span of the whole trace", () => {
    // It reads a key's first MAX_EXCERPT_EVENTS: a 5,000-pass hot loop said "3332 consecutive
    // passes" and "67 of the 3333 passes in its span", beside the Findings' 4999.
    const passes = Math.ceil(MAX_EXCERPT_EVENTS / 6) + 200;
    const { events } = readTraceText(hotLoopTrace(passes));
    const session = new TraceSession({ kind: "replay" });
    const cut = events.length - 6 * 50;
    session.push(events.slice(0, cut));
    expect(session.store.rowsOf(HOT_KEY).length).toBeGreaterThan(MAX_EXCERPT_EVENTS);
    const cli = (upTo: number) =>
      renderExcerptText(buildExcerpt(events.slice(0, upTo), { key: HOT_KEY })!);
    expect(session.excerpt(HOT_KEY)?.text).toBe(cli(cut));
    // More passes, and quiescent at last: the numbers follow, though its first events are the same.
    session.push(events.slice(cut));
    expect(session.excerpt(HOT_KEY)?.text).toBe(cli(events.length));
    expect(session.excerpt(HOT_KEY)?.text).toContain(`${passes - 1} consecutive passes`);
  });
});
