import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readTraceText } from "@loopscope/trace";
import { TraceSession } from "../store/session.ts";
import { FOLLOWED_PASSES, defaultWindow, followFrom } from "./fit.ts";
import { followWindow } from "./followWindow.ts";

const S = 1_000_000; // µs per second

describe("followWindow", () => {
  it("shows a whole trace read in batches, not its first batch's few seconds", () => {
    // A replay server's trace arrives in batches: 0.5 s of it, then all 200 s.
    let w = followWindow([0, 0.5 * S], undefined, true);
    expect(w).toBeUndefined();
    w = followWindow([0, 200 * S], w, false);
    expect(w![1] - w![0]).toBe(200 * S);
    expect(w![1]).toBeGreaterThan(200 * S);
  });

  it("keeps the window's width and moves it along as live events arrive", () => {
    const first = followWindow([0, 1 * S], undefined, false)!;
    expect(first[1] - first[0]).toBe(5 * S);
    const next = followWindow([0, 9 * S], first, false)!;
    expect(next[1] - next[0]).toBe(5 * S);
    expect(next[1]).toBeGreaterThan(9 * S);
    expect(followWindow([0, 9 * S], next, false)).toBeUndefined();
  });

  it("starts from the given window (a selected Foo's creation) and keeps its zoom", () => {
    const creation: [number, number] = [10 * S - 2_000, 10 * S + 60_000];
    // The creation's passes are the newest events: the window is the creation as it is.
    expect(followWindow([10 * S, 10 * S + 55_000], undefined, false, creation)).toEqual(creation);
    // A resync 30 s later: the same 62 ms, moved to end just past it.
    const later = followWindow([10 * S, 40 * S], creation, false, creation)!;
    expect(later[1] - later[0]).toBe(62_000);
    expect(later[0]).toBeLessThan(40 * S);
    expect(later[1]).toBeGreaterThan(40 * S);
  });

  it("starts from the last 10 s of a start window that is longer (a hot loop's whole life)", () => {
    const life: [number, number] = [0, 600 * S];
    const w = followWindow([0, 600 * S], undefined, false, life)!;
    expect(w[1] - w[0]).toBe(10 * S);
    // The newest event in view, near the right edge.
    expect(w[0]).toBeLessThan(600 * S);
    expect(w[1]).toBeGreaterThan(600 * S);
    expect(w[1] - 600 * S).toBeLessThan(S);
  });

  it("in folded time, keeps the anchor as its left edge and grows to the newest event", () => {
    const creation: [number, number] = [10 * S - 2_000, 10 * S + 60_000];
    // A resync 30 s later: the creation stays in view (folded time gives the gap no width).
    const later = followWindow([10 * S, 40 * S], undefined, false, creation, creation[0])!;
    expect(later[0]).toBe(creation[0]);
    expect(later[1]).toBeGreaterThan(40 * S);
    // A zoom of the user's is still theirs, moved along.
    const zoom: [number, number] = [39 * S, 40.5 * S];
    expect(followWindow([10 * S, 41 * S], zoom, false, creation, creation[0])![0]).toBe(39.575 * S);
  });
});

describe("followFrom", () => {
  const session = (name: string) => {
    const file = fileURLToPath(new URL(`../../../../public/traces/${name}`, import.meta.url));
    const s = new TraceSession({ kind: "replay", name });
    s.push(readTraceText(readFileSync(file, "utf8")).events);
    return s;
  };
  const KEYS = ["default/example-foo"];

  it("keeps a creation's start while its passes fit", () => {
    const s = session("create-foo.jsonl");
    const from = defaultWindow(s, KEYS)[0];
    expect(s.passesOf(KEYS[0]!).length).toBeLessThanOrEqual(FOLLOWED_PASSES);
    expect(followFrom(s, KEYS, from)).toBe(from);
  });

  it("keeps only the newest passes of a hot loop in view", () => {
    const s = session("hot-loop.jsonl");
    const passes = s.passesOf(KEYS[0]!);
    expect(passes.length).toBeGreaterThan(10);
    const at = followFrom(s, KEYS, passes[0]!.start, 10);
    expect(passes.filter((p) => p.start >= at)).toHaveLength(10);
  });
});
