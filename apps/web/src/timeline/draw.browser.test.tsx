import { describe, expect, it } from "vitest";
import unpatched from "../../../../e2e/fixtures/unpatched-exercise.log?raw";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import burst from "../../../../public/traces/burst.jsonl?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { THEMES } from "../ui/palette.ts";
import {
  axisHeight,
  drawTimeline,
  emptyGeometry,
  type DrawInput,
  type DrawnGeometry,
} from "./draw.ts";
import { fitWindow } from "./fit.ts";
import { MIN_PASS_PX } from "./fold.ts";
import { hitTest } from "./hitTest.ts";
import { layoutLanes } from "./layout.ts";
import { sessionFold } from "./sessionFold.ts";
import { GUTTER, makeTimeAxis } from "./timeScale.ts";
import { zoomedWindow } from "./zoomWindow.ts";

const KEY = "default/example-foo";

/** A frame of `input` painted on a fresh canvas of its size (what drawTimeline returns). */
function paint(input: DrawInput): ReturnType<typeof drawTimeline> {
  const canvas = document.createElement("canvas");
  canvas.width = input.width;
  canvas.height = input.height;
  return drawTimeline(canvas.getContext("2d")!, input);
}

/** The dark theme's 240 px frame of the whole trace, with `geometry` to collect what it drew. */
function folded(
  session: DrawInput["session"],
  axis: DrawInput["axis"],
  width: number,
): DrawInput & { geometry: DrawnGeometry } {
  const geometry: DrawnGeometry = emptyGeometry();
  const groups = layoutLanes([KEY], 30);
  return {
    session,
    groups,
    axis,
    width,
    height: 240,
    theme: THEMES.dark,
    until: Infinity,
    scrollY: 0,
    geometry,
  };
}

/** What the paint probe (Timeline.tsx) reports: the highest seq among the marks a frame drew. */
describe("drawn seq", () => {
  const session = sessionFromText(canonical);
  const store = session.store;
  // The key's events on the five lanes (markers such as the pass end have no mark).
  const rows = Array.from(store.rowsOf(KEY)).filter((r) => store.stage.get(r) <= 4);
  const width = 1200;
  const frame = (window: [number, number], keys: string[], until = Infinity) =>
    paint({
      session,
      groups: layoutLanes(keys, 40),
      axis: makeTimeAxis(window, window[0], width),
      width,
      height: 300,
      theme: THEMES.dark,
      until,
      scrollY: 0,
    });
  const ts = (i: number) => store.ts.get(rows[i]);
  const seq = (i: number) => store.seq.get(rows[i]);
  const newestBefore = (t: number) =>
    Math.max(
      ...rows
        .map((_, i) => i)
        .filter((i) => ts(i) <= t)
        .map(seq),
    );

  it("is the newest event in view, none past the window's right edge or the playhead", () => {
    expect(rows.length).toBeGreaterThan(6);
    const last = rows.length - 1;
    const all: [number, number] = [ts(0) - 1_000_000, ts(last) + 1_000_000];
    expect(frame(all, [KEY])).toBe(seq(last));
    // Cut the window in the widest gap between events, far (in pixels) from any mark's radius.
    let gap = 0;
    for (let i = 1; i < rows.length; i++)
      if (ts(i) - ts(i - 1) > ts(gap + 1) - ts(gap)) gap = i - 1;
    const cut = (ts(gap) + ts(gap + 1)) / 2;
    const early: [number, number] = [cut - 20 * (ts(gap + 1) - ts(gap)), cut];
    expect(newestBefore(cut)).toBeLessThan(seq(last));
    expect(frame(early, [KEY])).toBe(newestBefore(cut));
    expect(frame(all, [KEY], ts(2))).toBe(newestBefore(ts(2)));
  });

  it("is 0 when no lanes are shown", () => {
    expect(frame([ts(0), ts(rows.length - 1)], [])).toBe(0);
  });
});

describe("lane names", () => {
  it("end clear of a mark at the plot's edge, in every type scale presenter mode uses", () => {
    const session = sessionFromText(canonical);
    const window = fitWindow(session, [KEY]);
    for (const typeScale of [1, 1.25, 1.5]) {
      const input = folded(session, makeTimeAxis(window, window[0], 1200), 1200);
      input.groups = layoutLanes([KEY], Math.round(30 * typeScale), Math.round(26 * typeScale));
      input.typeScale = typeScale;
      input.height = 400;
      paint(input);
      const names = input.geometry.labels.filter((l) => l.kind === "lane");
      expect(names.map((l) => l.text)).toEqual(["watch", "enqueue", "dequeue", "read", "write"]);
      for (const l of names) {
        expect(l.x, `${l.text} at ×${typeScale}`).toBeGreaterThanOrEqual(0);
        // A mark at the window's start reaches 6 px into the gutter.
        expect(l.x + l.w, `${l.text} at ×${typeScale}`).toBeLessThanOrEqual(GUTTER - 8);
      }
    }
  });
});

describe("time axis", () => {
  it("labels ticks only where their labels do not run into each other, at any zoom", () => {
    const session = sessionFromText(canonical);
    const t0 = session.store.ts.get(0);
    for (const [width, spanUs] of [
      [1200, 45_000], // ~2 ms ticks: "09:14:06.043" after "09:14:06.041"
      [1200, 3_000], // µs ticks: the widest labels
      [700, 60_000_000],
      [1900, 900],
    ] as const) {
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = 200;
      const ctx = canvas.getContext("2d")!;
      const drawn: { x: number; y: number; w: number }[] = [];
      const fill = ctx.fillText.bind(ctx);
      ctx.fillText = (text: string, x: number, y: number) => {
        if (y === 4 || y === 19) drawn.push({ x, y, w: ctx.measureText(text).width });
        fill(text, x, y);
      };
      const window: [number, number] = [t0, t0 + spanUs];
      drawTimeline(ctx, {
        session,
        groups: layoutLanes([KEY], 40),
        axis: makeTimeAxis(window, window[0], width),
        width,
        height: 200,
        theme: THEMES.dark,
        until: Infinity,
        scrollY: 0,
      });
      for (const y of [4, 19]) {
        const row = drawn.filter((d) => d.y === y && d.x > 10).sort((a, b) => a.x - b.x);
        expect(row.length, `${width} px, ${spanUs} µs`).toBeGreaterThan(1);
        for (let i = 1; i < row.length; i++)
          expect(row[i]!.x, `${width} px, ${spanUs} µs`).toBeGreaterThan(
            row[i - 1]!.x + row[i - 1]!.w,
          );
      }
    }
  });
});

describe("folded time, one axis for painting and hit testing", () => {
  it("finds each pass where the painter drew it, and the geometry has no label over another", () => {
    const session = sessionFromText(canonical);
    const width = 700;
    const passes = session.passesOf(KEY);
    const first = session.store.ts.get(0);
    const last = Math.max(...passes.map((p) => p.end ?? p.start));
    const fold = sessionFold(session, [KEY], width - 8 - GUTTER);
    expect(fold).toBeDefined();
    const axis = makeTimeAxis([first - 1000, last + 1000], first, width, fold);
    const input = folded(session, axis, width);
    const { groups, geometry } = input;
    paint(input);
    expect(geometry.passes.map((p) => p.index)).toEqual(passes.map((p) => p.index));
    const readLane = groups[0].lanes[3];
    const y = axisHeight(input) + readLane.y + 2; // the read lane's top edge: no mark there
    for (const drawn of geometry.passes) {
      expect(drawn.x1 - drawn.x0).toBeGreaterThanOrEqual(24);
      const hit = hitTest(input, (drawn.x0 + drawn.x1) / 2, y);
      expect(hit).toEqual({ kind: "pass", key: KEY, index: drawn.index });
    }
    for (let i = 0; i < geometry.labels.length; i++)
      for (let j = i + 1; j < geometry.labels.length; j++) {
        const a = geometry.labels[i];
        const b = geometry.labels[j];
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect(apart, `${a.text} / ${b.text}`).toBe(true);
      }
  });

  it("labels an axis's times in one unit: seconds once a tick reaches a second", () => {
    const session = sessionFromText(canonical);
    const origin = session.summaryOf(KEY)!.firstTs;
    for (const width of [700, 1000, 1400]) {
      const axis = makeTimeAxis([origin - 200_000, origin + 2_300_000], origin, width);
      const input = folded(session, axis, width);
      paint(input);
      const times = input.geometry.labels.filter((l) => l.kind === "tick" && /^[+−]/.test(l.text));
      const said = `${width} px: ${times.map((l) => l.text).join(", ")}`;
      expect(times.length, said).toBeGreaterThan(3);
      expect(
        times.every((l) => l.text.endsWith(" s")),
        said,
      ).toBe(true);
    }
  });

  it("labels the times of a burst's axis, a break every pass or two", () => {
    // The last of eight Foos applied at once: its passes wait in the queue behind the others',
    // so every stretch between breaks is narrower than the ticks' spacing.
    const key = "default/burst-08";
    const session = sessionFromText(burst, "burst.jsonl");
    for (let width = 700; width <= 1000; width += 100) {
      const fold = sessionFold(session, [key], width - 8 - GUTTER);
      const axis = makeTimeAxis(
        fitWindow(session, [key]),
        session.summaryOf(key)!.firstTs,
        width,
        fold,
      );
      const input = { ...folded(session, axis, width), groups: layoutLanes([key], 30) };
      paint(input);
      const { labels, breaks } = input.geometry;
      expect(breaks.length, `${width} px`).toBeGreaterThan(4);
      const times = labels.filter((l) => l.kind === "tick" && /^[+−]/.test(l.text));
      const said = `${width} px: ${times.map((l) => l.text).join(", ")}`;
      expect(times.length, said).toBeGreaterThan(3);
      // Round times: none to the µs of a sliver between two breaks ("+348.550 ms").
      expect(
        times.filter((l) => /\.\d+ ms$/.test(l.text)),
        said,
      ).toEqual([]);
      // One unit and one precision for the axis: "+500 ms" stood beside "+1.000 s", and
      // "+0.04 s" beside "+0.140 s".
      expect(new Set(times.map((l) => l.text.split(" ")[1])).size, said).toBe(1);
      expect(new Set(times.map((l) => /\.(\d+)/.exec(l.text)?.[1].length ?? 0)).size, said).toBe(1);
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++) {
          const [a, b] = [labels[i], labels[j]];
          const apart =
            a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
          expect(apart, `${width} px: ${a.text} / ${b.text}`).toBe(true);
        }
    }
  });

  it("cuts a long Foo name in its header row, leaving the pass labels room", () => {
    const width = 1200;
    /** The pass labels a frame of the whole trace draws, its Foo renamed `key`. */
    const passLabels = (key: string) => {
      const session = sessionFromText(canonical.replaceAll(KEY, key));
      const passes = session.passesOf(key);
      const first = session.store.ts.get(0);
      const last = Math.max(...passes.map((p) => p.end ?? p.start));
      const fold = sessionFold(session, [key], width - 8 - GUTTER);
      const axis = makeTimeAxis([first - 1000, last + 1000], first, width, fold);
      const geometry: DrawnGeometry = emptyGeometry();
      paint({ ...folded(session, axis, width), groups: layoutLanes([key], 30), geometry });
      return geometry.labels.filter((l) => l.kind === "pass");
    };
    const short = passLabels(KEY);
    expect(short.length).toBeGreaterThan(3);
    const long = passLabels("default/" + "a-really-long-foo-name-".repeat(5) + "end");
    expect(long.length).toBeGreaterThanOrEqual(short.length - 1);
  });

  it("says a Foo it is asked to show is not in the trace (a link from another one)", () => {
    const session = sessionFromText(canonical);
    const width = 900;
    const axis = makeTimeAxis([0, 1e6], 0, width);
    const geometry: DrawnGeometry = emptyGeometry();
    const groups = layoutLanes([KEY, "default/burst-01"], 30);
    paint({ ...folded(session, axis, width), groups, geometry });
    const absent = geometry.labels.filter((l) => l.kind === "absent");
    // In canvas px: under the axis.
    expect(absent.map((l) => [l.text, l.y])).toEqual([
      ["— not in this trace", groups[1].y + axisHeight({})],
    ]);
  });

  it("keeps mark labels off the break marks of folded gaps, at any width", () => {
    const session = sessionFromText(canonical);
    const passes = session.passesOf(KEY);
    const first = session.store.ts.get(0);
    const last = Math.max(...passes.map((p) => p.end ?? p.start));
    let labels = 0;
    let breaks = 0;
    for (let width = 500; width <= 1900; width += 50) {
      const fold = sessionFold(session, [KEY], width - 8 - GUTTER);
      const input = folded(
        session,
        makeTimeAxis([first - 1000, last + 1000], first, width, fold),
        width,
      );
      const { geometry } = input;
      paint(input);
      const marks = geometry.labels.filter((l) => l.kind === "mark");
      labels += marks.length;
      breaks += geometry.breaks.length;
      for (const l of marks)
        for (const b of geometry.breaks)
          expect(
            l.x >= b.mid + 5 || l.x + l.w <= b.mid - 5,
            `${width} px: "${l.text}" across the break at ${b.mid}`,
          ).toBe(true);
    }
    expect(labels).toBeGreaterThan(0);
    expect(breaks).toBeGreaterThan(0);
  });
});

/**
 * A trace as `loopscope proxy` records it: the watch events and writes the wire showed, each
 * enqueue and pass end inferred, so a pass with one write starts and ends at that write.
 */
const PROXY = [
  `{"loopscope":"trace","version":1,"source":"proxy","created":"2026-12-07T16:40:04.938Z","cluster":"embedded"}`,
  ...(
    [
      [0, "watch", `"kind":"Foo","event":"add","name":"example-foo","ns":"default","rv":"11"`],
      [0, "enqueue", `"cause":"watch","inferred":true,"causeSeq":1`],
      [
        139_780,
        "write",
        `"verb":"create","target":"deployments/default/example-foo","code":201,"rv":"12","changed":true`,
      ],
      [
        144_772,
        "watch",
        `"kind":"Deployment","event":"add","name":"example-foo","ns":"default","rv":"12"`,
      ],
      [144_772, "enqueue", `"cause":"watch","inferred":true,"causeSeq":4`],
      [
        154_281,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":200,"rv":"13","changed":true`,
      ],
      [154_281, "done", `"outcome":"synced","inferred":true`],
      [
        184_982,
        "watch",
        `"kind":"Foo","event":"update","name":"example-foo","ns":"default","rv":"13","oldRv":"11"`,
      ],
      [
        207_511,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":409,"reason":"Conflict"`,
      ],
      [184_982, "enqueue", `"cause":"watch","inferred":true,"causeSeq":8`],
      [207_511, "done", `"outcome":"requeued","inferred":true`],
      [
        234_893,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":200,"rv":"13","changed":false`,
      ],
      [234_893, "enqueue", `"cause":"retry","inferred":true`],
      [234_893, "done", `"outcome":"synced","inferred":true`],
      [
        276_772,
        "watch",
        `"kind":"Deployment","event":"update","name":"example-foo","ns":"default","rv":"15","oldRv":"12"`,
      ],
      [276_772, "enqueue", `"cause":"watch","inferred":true,"causeSeq":15`],
      [
        437_227,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":200,"rv":"13","changed":false`,
      ],
      [437_227, "done", `"outcome":"synced","inferred":true`],
      [
        1_672_847,
        "watch",
        `"kind":"Deployment","event":"update","name":"example-foo","ns":"default","rv":"17","oldRv":"15"`,
      ],
      [1_672_847, "enqueue", `"cause":"watch","inferred":true,"causeSeq":19`],
      [
        1_696_408,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":200,"rv":"18","changed":true`,
      ],
      [1_696_408, "done", `"outcome":"synced","inferred":true`],
      [
        22_527_913,
        "write",
        `"verb":"updateStatus","target":"foos/default/example-foo/status","code":200,"rv":"18","changed":false`,
      ],
      [22_527_913, "done", `"outcome":"synced","inferred":true`],
    ] as const
  ).map(
    ([us, stage, rest], i) =>
      `{"stage":"${stage}","ts":${1_796_661_631_227_106 + us},"key":"${KEY}",${rest},"seq":${i + 1}}`,
  ),
].join("\n");

describe("passes known only at an instant (start = end)", () => {
  for (const [name, text, instants] of [
    ["proxy.jsonl", PROXY, 5],
    ["unpatched-exercise.log", unpatched, 6],
  ] as const) {
    it(`gives each of ${name}'s passes MIN_PASS_PX and its label in folded time, found where drawn`, () => {
      const session = sessionFromText(text, name);
      const passes = session.passesOf(KEY);
      expect(passes.filter((p) => p.end === p.start).length).toBe(instants);
      // The timeline's canvas in a 1280 px window, and narrower and wider ones.
      for (const width of [700, 940, 1200]) {
        const fold = sessionFold(session, [KEY], width - 8 - GUTTER);
        const axis = makeTimeAxis(fitWindow(session, [KEY]), passes[0].start, width, fold);
        const input = folded(session, axis, width);
        paint(input);
        const { geometry } = input;
        expect(
          geometry.passes.map((p) => p.index),
          `${width} px`,
        ).toEqual(passes.map((p) => p.index));
        const y = axisHeight(input) + input.groups[0].lanes[3].y + 2; // read lane's top: no mark
        for (const drawn of geometry.passes) {
          const said = `${width} px: pass #${drawn.number}`;
          expect(drawn.x1 - drawn.x0, said).toBeGreaterThanOrEqual(MIN_PASS_PX - 1);
          expect(hitTest(input, (drawn.x0 + drawn.x1) / 2, y), said).toEqual({
            kind: "pass",
            key: KEY,
            index: drawn.index,
          });
        }
        const labelled = geometry.labels.filter((l) => l.kind === "pass").map((l) => l.pass?.index);
        expect(labelled, `${width} px`).toEqual(passes.map((p) => p.index));
        // An instant pass's MIN_PASS_PX stand for no time: no tick there to its µs ("+0.066923
        // s", which made the axis's every label as long).
        const times = geometry.labels.filter((l) => l.kind === "tick" && /^[+−]/.test(l.text));
        for (const l of times)
          expect(l.text, `${width} px`).toMatch(/^[+−]\d+(\.\d{1,4})? s$|^[+−]\d+ ms$/);
      }
    });
  }
  it("labels at least two times of a trace of instant passes, at the fit and zoomed in", () => {
    // unpatched-exercise.log: six instant passes, a break between each two. With the instant
    // passes' px standing for no time, their stretches had no tick: "+0.0 s" alone at the fit,
    // and no time at all after `+` twice.
    const session = sessionFromText(unpatched, "unpatched-exercise.log");
    const passes = session.passesOf(KEY);
    const origin = passes[0].start;
    for (const width of [940, 1200]) {
      const fold = sessionFold(session, [KEY], width - 8 - GUTTER);
      let window = fitWindow(session, [KEY]);
      for (const zoom of [0, 1, 2]) {
        const axis = makeTimeAxis(window, origin, width, fold);
        const input = folded(session, axis, width);
        paint(input);
        const said = `${width} px, zoomed in ${zoom}×`;
        const times = input.geometry.labels.filter(
          (l) => l.kind === "tick" && /^[+−]/.test(l.text),
        );
        expect(times.length, said).toBeGreaterThanOrEqual(2);
        for (const l of times) {
          expect(l.text, said).toMatch(/^[+−]\d+(\.\d{1,4})? s$|^[+−]\d+ ms$/);
          // Each says the time where it is drawn, to its digits.
          const ms = Number(l.text.replace("−", "-").replace(" s", "")) * 1000;
          const digits = l.text.replace(" s", "").split(".")[1]?.length ?? 0;
          const t = axis.invert(l.x - 3);
          expect(Math.abs((t - origin) / 1000 - ms), `${said}: ${l.text}`).toBeLessThanOrEqual(
            0.5 * 1000 * 10 ** -digits + 0.01,
          );
        }
        window = zoomedWindow(axis, 1.5);
      }
    }
  });
});

describe("the linear axis's origin words", () => {
  const ADD = "STAGE/watch kind=Foo event=add key=default/example-foo rv=1001";
  function gutterWord(text: string): string | undefined {
    const session = sessionFromText(text);
    const from = session.summaryOf(KEY)!.firstTs;
    const window: [number, number] = [from, from + 2_000_000];
    const input = folded(session, makeTimeAxis(window, from, 900), 900);
    paint(input);
    return input.geometry.labels.find((l) => l.x === 6 && l.kind === "tick")?.text;
  }

  it("counts a created Foo's time since its creation", () => {
    expect(gutterWord(canonical)).toBe("since creation");
  });

  it("counts a listed Foo's time since the informer's initial list, not a creation", () => {
    expect(gutterWord(canonical.replace(ADD, `${ADD} initial=true`))).toBe("since initial list");
  });
});
