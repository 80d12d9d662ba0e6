import { describe, expect, it } from "vitest";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { THEMES } from "../ui/palette.ts";
import { drawTimeline, emptyGeometry, type DrawInput, type DrawnGeometry } from "./draw.ts";
import { layoutLanes } from "./layout.ts";
import { sessionFold } from "./sessionFold.ts";
import { GUTTER, makeTimeAxis } from "./timeScale.ts";

const KEY = "default/hot-foo";
const PASSES = 1500;

/** A hot loop: one Foo whose every status write comes back as a watch event and a new pass. */
function hotLoop(): string {
  const lines = [
    JSON.stringify({ loopscope: "trace", version: 1, source: "live", scenario: "hot-loop" }),
  ];
  const base = { key: KEY, ns: "default", name: "hot-foo" };
  let seq = 0;
  let ts = Date.UTC(2026, 11, 2, 9) * 1000;
  let rv = 5000;
  const w = (o: object) => lines.push(JSON.stringify({ ...base, ...o, ts, seq: ++seq }));
  w({ stage: "watch", kind: "Foo", event: "add", rv: String(rv) });
  for (let i = 0; i < PASSES; i++) {
    ts += 60;
    w({ stage: "enqueue", len: 1, merged: false, cause: "watch", causeSeq: seq });
    ts += 200;
    w({ stage: "dequeue", len: 0, worker: 1 });
    ts += 50;
    w({ stage: "read", rv: String(rv), generation: 1, worker: 1 });
    ts += 3000;
    rv++;
    w({
      stage: "write",
      verb: "updateStatus",
      target: `foos/${KEY}/status`,
      code: 200,
      rv: String(rv),
      changed: true,
    });
    ts += 500;
    w({ stage: "done", outcome: "synced", worker: 1 });
    ts += 1_000_000 + (i % 7) * 250_000;
    w({ stage: "watch", kind: "Foo", event: "update", rv: String(rv), oldRv: String(rv - 1) });
  }
  return lines.join("\n") + "\n";
}

describe("level of detail on a hot loop", () => {
  const session = sessionFromText(hotLoop(), "hot.jsonl");
  const store = session.store;
  const rows = Array.from(store.rowsOf(KEY)).filter((r) => store.stage.get(r) <= 4);
  const first = store.ts.get(rows[0]);
  const last = store.ts.get(rows[rows.length - 1]);
  const width = 1200;
  const frame = (window: [number, number]) => {
    const geometry: DrawnGeometry = emptyGeometry();
    const fold = sessionFold(session, [KEY], width - 8 - GUTTER);
    const input: DrawInput = {
      session,
      groups: layoutLanes([KEY], 26),
      axis: makeTimeAxis(window, first, width, fold),
      width,
      height: 220,
      theme: THEMES.light,
      until: Infinity,
      scrollY: 0,
      geometry,
    };
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = input.height;
    drawTimeline(canvas.getContext("2d")!, input);
    return { geometry, axis: input.axis };
  };

  it("has every pass it was given", () => {
    expect(session.passesOf(KEY)).toHaveLength(PASSES);
  });

  it("zoomed out, shows a mark in each lane's columns but paints a few shapes", () => {
    const { geometry } = frame([first, last]);
    expect(geometry.passes).toHaveLength(PASSES);
    // A mark in nearly every pixel column of each of the five lanes...
    expect(geometry.marks).toBeGreaterThan(5 * (width - GUTTER) * 0.8);
    // ...painted as a run per lane, not one glyph per column.
    expect(geometry.markShapes).toBeLessThanOrEqual(5 * 4);
  });

  it("zoomed in on a few passes, draws those and their marks alone", () => {
    const passes = session.passesOf(KEY);
    const a = passes[700].start - 1000;
    const b = passes[703].end! + 1000;
    const { geometry, axis } = frame([a, b]);
    const t0 = axis.invert(GUTTER);
    const t1 = axis.invert(width);
    const shown = passes.filter((p) => p.start <= t1 && p.end! >= t0).map((p) => p.index);
    expect(shown.length).toBeLessThan(10);
    expect(geometry.passes.map((p) => p.index)).toEqual(shown);
    const inView = rows.filter((r) => {
      const x = axis.x(store.ts.get(r));
      return x >= GUTTER && x <= width;
    });
    expect(geometry.marks).toBeLessThanOrEqual(inView.length + 10);
    expect(geometry.marks).toBeGreaterThan(0);
  });
});
