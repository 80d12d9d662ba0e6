import type { Pass } from "@loopscope/trace";
import { describe, expect, it } from "vitest";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { causeStyle, OKABE_ITO, THEMES } from "../ui/palette.ts";
import { AXIS_HEIGHT, drawTimeline, type DrawInput } from "./draw.ts";
import { layoutLanes, MIN_BAND_PX, passBands, passLabel, placePassLabels } from "./layout.ts";
import { makeTimeAxis } from "./timeScale.ts";

const KEY = "default/example-foo";

function pass(p: Partial<Pass>): Pass {
  return {
    key: KEY,
    index: 0,
    number: 1,
    start: 0,
    triggers: [],
    cause: "external",
    inferred: false,
    writeSeqs: [],
    changingWrites: 0,
    noopWrites: 0,
    loopRun: 0,
    conflicts: 0,
    changedFields: [],
    fromMarkers: false,
    ...p,
  };
}

describe("pass banding", () => {
  const group = layoutLanes([KEY], 30)[0];
  const x = (us: number) => us / 10;

  it("spans a band from dequeue to pass end across the group's five lanes", () => {
    const [b] = passBands([pass({ start: 1000, end: 3000 })], group, x, 1000, 0);
    expect([b.x0, b.x1]).toEqual([100, 300]);
    expect(b.y).toBe(group.lanes[0].y);
    expect(b.height).toBe(5 * 30);
    expect(b.open).toBe(false);
  });

  it("draws an open pass up to the given time and keeps instantaneous passes visible", () => {
    const [open, instant] = passBands(
      [pass({ start: 1000 }), pass({ index: 1, start: 5000, end: 5000 })],
      group,
      x,
      1000,
      2500,
    );
    expect(open.open).toBe(true);
    expect(open.x1).toBe(250);
    expect(instant.x1 - instant.x0).toBe(MIN_BAND_PX);
  });

  it("skips bands outside the view and spells out merged enqueues", () => {
    const bands = passBands([pass({ start: 50_000, end: 60_000 })], group, x, 1000, 0);
    expect(bands).toHaveLength(0);
    const merged = pass({
      index: 3,
      number: 4,
      cause: "self",
      triggers: [
        { enqueueSeq: 1, cause: "self", inferred: false },
        { enqueueSeq: 2, cause: "self", inferred: false },
      ],
    });
    expect(passLabel(merged)).toBe("#4 self-triggered · 2 adds → 1 dequeue");
    // A Foo created again counts its passes from 1 again (as the excerpt does), and says so.
    expect(passLabel(pass({ index: 8, number: 1 }))).toBe("new Foo · #1 external");
    expect(passLabel(pass({ index: 9, number: 2 }))).toBe("#2 external");
  });
});

describe("pass labels in the header row", () => {
  const group = layoutLanes([KEY], 30)[0];
  const x = (us: number) => us;
  const measure = (label: string) => label.length * 6;
  const placed = (passes: Pass[]) =>
    placePassLabels(passBands(passes, group, x, 1000, 0), measure, 100, 150, 1000).map(
      (l) => `${l.text}@${l.x}`,
    );

  it("places labels after the key's name, short where the long one has no room, else none", () => {
    const passes = [
      pass({ index: 0, number: 1, start: 120, end: 130 }), // under the key's name
      pass({ index: 1, number: 2, start: 300, end: 310 }),
      pass({ index: 2, number: 3, start: 320, end: 330 }), // #2's long label would run into it
      pass({ index: 3, number: 4, start: 500, end: 510 }),
      pass({ index: 4, number: 5, start: 960, end: 970 }), // past the right edge
    ];
    // #2's long label no longer costs #3 its label (it had "#2 external" and #3 nothing).
    expect(placed(passes)).toEqual(["#2@304", "#3 external@324", "#4 external@504", "#5@964"]);
  });

  it("labels a band at the right edge, its short label ending at the edge", () => {
    // Following live, the newest pass is at the edge: a self-triggered one said "#7 self" nowhere.
    const passes = [
      pass({ index: 0, number: 6, start: 500, end: 510 }),
      pass({ index: 1, number: 7, start: 985, end: 995, cause: "self" }),
    ];
    expect(placed(passes)).toEqual(["#6 external@504", "#7 self@957"]);
  });

  it("labels a band that starts under the key's name just after the name", () => {
    const passes = [
      pass({ index: 0, number: 1, start: 120, end: 190 }), // goes on past the name (150)
      pass({ index: 1, number: 2, start: 240, end: 250 }),
    ];
    expect(placed(passes)).toEqual(["#1 external@156", "#2 external@244"]);
  });

  it("gives every one of a row of passes a label, each MIN_PASS_PX wide with a fold between", () => {
    // Passes known only at an instant, in folded time: 34 px each, a 44 px fold between.
    const passes = [0, 1, 2, 3, 4, 5].map((i) =>
      pass({
        index: i,
        number: i + 1,
        start: 200 + 78 * i,
        end: 234 + 78 * i,
        cause: i % 2 ? "self" : "external",
      }),
    );
    expect(placed(passes)).toEqual([
      "#1 external@204",
      "#2 self@282",
      "#3 external@360",
      "#4 self@438",
      "#5 external@516",
      "#6 self-triggered@594",
    ]);
  });

  it("gives a new Foo's label the room its neighbours would have taken", () => {
    const passes = [
      pass({ index: 0, number: 1, start: 200, end: 210 }),
      pass({ index: 1, number: 2, start: 280, end: 290 }), // its label would cover the new Foo's
      pass({ index: 2, number: 1, start: 300, end: 310 }), // a new life
      pass({ index: 3, number: 2, start: 330, end: 340 }), // inside the new Foo's label
      pass({ index: 4, number: 3, start: 500, end: 510 }),
    ];
    expect(placed(passes)).toEqual([
      "#1 external@204",
      "#2@284",
      "new Foo · #1 external@304",
      "#3 external@504",
    ]);
  });

  it("labels a self-triggered pass before the external ones around it", () => {
    const passes = [
      pass({ index: 0, number: 1, start: 300, end: 310 }),
      pass({ index: 1, number: 2, start: 330, end: 340, cause: "self" }), // inside #1's label
      pass({ index: 2, number: 3, start: 350, end: 360 }),
    ];
    expect(placed(passes)).toEqual(["#1@304", "#2 self-triggered@334"]);
  });
});

describe("cause styling", () => {
  it("marks self-triggered passes by colour, hatch and label; nothing else is hatched", () => {
    expect(causeStyle("self")).toEqual({
      color: OKABE_ITO.vermillion,
      hatch: true,
      label: "self-triggered",
    });
    for (const c of ["external", "resync", "retry", "unknown"] as const)
      expect(causeStyle(c).hatch).toBe(false);
    expect(causeStyle("self", true).label).toBe("self-triggered (inferred)");
  });

  it("paints a self-triggered band hatched and an external band flat", () => {
    const session = sessionFromText(canonical);
    const passes = session.passesOf(KEY);
    const self = passes.find((p) => p.cause === "self")!;
    const ext = passes.find((p) => p.cause === "external")!;
    // A window just around the first two passes, wide enough for both bands to be many px.
    const width = 1200;
    const axis = makeTimeAxis([ext.start - 1000, self.end! + 1000], ext.start, width);
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = 300;
    const ctx = canvas.getContext("2d")!;
    const groups = layoutLanes([KEY], 40);
    const input: DrawInput = {
      session,
      groups,
      axis,
      width,
      height: 300,
      theme: THEMES.dark,
      until: Infinity,
      scrollY: 0,
    };
    drawTimeline(ctx, input);
    // Sample a strip of the read lane (few marks there) in the middle of each band.
    const lane = groups[0].lanes[3];
    const strip = (p: Pass) => {
      const x0 = Math.round(axis.x(p.start) + 6);
      const x1 = Math.round(axis.x(p.end!) - 6);
      const y = AXIS_HEIGHT + lane.y + 3;
      const d = ctx.getImageData(x0, y, x1 - x0, 6).data;
      const colours = new Set<string>();
      let redder = 0;
      for (let i = 0; i < d.length; i += 4) {
        colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
        if (d[i] > d[i + 2]) redder++;
      }
      return { colours: colours.size, redShare: redder / (d.length / 4) };
    };
    const s = strip(self);
    const e = strip(ext);
    expect(s.colours).toBeGreaterThan(1); // hatch lines and gaps
    expect(s.redShare).toBeGreaterThan(0.5); // vermillion tint
    expect(e.colours).toBeLessThanOrEqual(2); // flat fill
    expect(e.redShare).toBeLessThan(0.1); // blue tint
  });
});
