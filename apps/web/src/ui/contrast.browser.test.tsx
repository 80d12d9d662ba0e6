/**
 * Text contrast, WCAG AA (4.5:1; 3:1 for large text), from the computed styles of what the
 * dashboard draws in each theme — the light and dark themes and presenter mode switched on from
 * either: the counts table's observed numbers, the objects table's selected row (self count,
 * state badge), the connection badge, the legend, pressed and primary buttons, findings, the
 * diagnostics and the workshop's badges. Every text node rendered is measured against the
 * backgrounds painted under it (its ancestors'); a disabled control is exempt. SVG text — the
 * machinery diagram's, the overview's — is measured by its fill against the shape drawn under it
 * (the last filled rect or path before it that covers its middle) over the SVG's own background.
 * The canvas is not: its one coloured text, a self-triggered pass's label, is THEMES.selfText,
 * measured at the end.
 */
import { afterEach, describe, expect, it } from "vitest";
import { render } from "vitest-browser-react";
import type { Finding, MachineryState } from "@loopscope/trace";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import hotLoop from "../../../../packages/trace/fixtures/stage/hot-loop.log?raw";
import "./styles.css";
import "../workshop/workshop.css";
import { CountsTable } from "../panels/CountsTable.tsx";
import { DiagnosticsList } from "../panels/DiagnosticsList.tsx";
import { FindingsList } from "../panels/FindingsList.tsx";
import { ObjectsPanel } from "../panels/ObjectsPanel.tsx";
import type { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { Legend } from "../timeline/Legend.tsx";
import { Overview } from "../timeline/Overview.tsx";
import { COLUMN_LAYOUT, MachineryDiagram, ROW_LAYOUT } from "../workshop/MachineryDiagram.tsx";
import { WorkshopDock } from "../workshop/WorkshopDock.tsx";
import { THEMES } from "./palette.ts";

type RGBA = [number, number, number, number];

function parse(css: string): RGBA {
  // color-mix() computes to color(srgb r g b [/ a]), channels 0–1.
  const mixed = /color\(srgb ([^)]+)\)/.exec(css);
  if (mixed) {
    const p = mixed[1]!
      .split(/[\s/]+/)
      .filter(Boolean)
      .map(Number);
    return [p[0]! * 255, p[1]! * 255, p[2]! * 255, p.length > 3 ? p[3]! : 1];
  }
  const m = /rgba?\(([^)]+)\)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  const p = m[1]!
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  return [p[0]!, p[1]!, p[2]!, p.length > 3 ? p[3]! : 1];
}

function hex(h: string): RGBA {
  return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)).concat(1) as RGBA;
}

/** `fg` (alpha and all) painted over the opaque `bg`. */
function over(fg: RGBA, bg: RGBA): RGBA {
  const a = fg[3];
  return [0, 1, 2].map((i) => fg[i]! * a + bg[i]! * (1 - a)).concat(1) as RGBA;
}

function luminance([r, g, b]: RGBA): number {
  const f = (v: number) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

function contrast(a: RGBA, b: RGBA): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour under `el`: its ancestors' background colours, outermost first, over white. */
function backgroundOf(el: Element): RGBA {
  const layers: RGBA[] = [];
  for (let n: Element | null = el; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] >= 1) break;
  }
  let bg: RGBA = [255, 255, 255, 1];
  for (const c of layers.reverse()) bg = over(c, bg);
  return bg;
}

interface Measured {
  el: Element;
  text: string;
  ratio: number;
  needed: number;
}

/** Every element with its own visible text under `root`, and its contrast. */
function measure(root: Element): Measured[] {
  const out: Measured[] = [];
  const seen = new Set<Element>();
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    const el = node.parentElement;
    const text = node.textContent?.trim();
    if (!el || !text || seen.has(el)) continue;
    seen.add(el);
    if (el.closest("svg, .sr-only, button:disabled")) continue;
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || cs.visibility === "hidden") continue;
    if (parseFloat(cs.fontSize) === 0) continue;
    let opacity = 1;
    for (let n: Element | null = el; n; n = n.parentElement)
      opacity *= Number(getComputedStyle(n).opacity);
    const color = parse(cs.color);
    const bg = backgroundOf(el);
    const fg = over([color[0], color[1], color[2], color[3] * opacity], bg);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
    out.push({ el, text, ratio: contrast(fg, bg), needed: large ? 3 : 4.5 });
  }
  return out;
}

/** A shape's own opacity with its ancestors' (up to the document). */
function opacityOf(el: Element): number {
  let opacity = 1;
  for (let n: Element | null = el; n; n = n.parentElement)
    opacity *= Number(getComputedStyle(n).opacity);
  return opacity;
}

/** The colour an SVG shape paints: its fill, its fill-opacity and opacity, over `bg`. */
function paintOf(shape: Element, bg: RGBA): RGBA | undefined {
  const cs = getComputedStyle(shape);
  if (cs.fill === "none" || (!cs.fill.startsWith("rgb") && !cs.fill.startsWith("color("))) return;
  const c = parse(cs.fill);
  return over([c[0], c[1], c[2], c[3] * Number(cs.fillOpacity) * opacityOf(shape)], bg);
}

/** Every <text> with text under `root`'s SVGs, by its fill against what is drawn under it. */
function measureSvg(root: Element): Measured[] {
  const out: Measured[] = [];
  for (const svg of root.querySelectorAll("svg")) {
    const shapes = [...svg.querySelectorAll("rect, path, circle")].filter(
      (s) => !s.closest("defs, marker"),
    );
    const scale = (svg as SVGSVGElement).getScreenCTM()?.a ?? 1;
    for (const t of svg.querySelectorAll("text")) {
      const text = t.textContent?.trim();
      const box = t.getBoundingClientRect();
      const cs = getComputedStyle(t);
      if (!text || box.width === 0 || cs.visibility === "hidden" || cs.display === "none") continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      let bg = backgroundOf(svg);
      for (const s of shapes) {
        if (!(s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
        const r = s.getBoundingClientRect();
        if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
        bg = paintOf(s, bg) ?? bg;
      }
      const fill = parse(cs.fill);
      const fg = over([fill[0], fill[1], fill[2], fill[3] * opacityOf(t)], bg);
      const size = parseFloat(cs.fontSize) * scale;
      const large = size >= 24 || (Number(cs.fontWeight) >= 700 && size >= 18.66);
      out.push({ el: t, text, ratio: contrast(fg, bg), needed: large ? 3 : 4.5 });
    }
  }
  return out;
}

function Page({
  created,
  looping,
  view,
}: {
  created: TraceSession;
  looping: TraceSession;
  view: ViewStore;
}) {
  const findings: Finding[] = [
    { kind: "hot-loop", key: KEY, detail: "5 passes", seq: 9, count: 5, lives: 1 },
    { kind: "conflict", key: KEY, detail: "409", seq: 10, count: 1, lives: 1 },
    { kind: "retry", key: KEY, detail: "requeued", seq: 11, count: 1, lives: 1 },
  ];
  return (
    <div>
      <header className="topbar">
        {/* App's connection badge, in each of its looks (connectionBadge.ts). */}
        {["open", "connecting", "reconnecting", "closed", "cluster-unreachable"].map((look) => (
          <span key={look} className={`status ${look}`} data-look={look}>
            {look === "open" ? "connected" : look}
          </span>
        ))}
        <span className="error">could not read the file</span>
      </header>
      <div
        style={{
          display: "grid",
          height: 160,
          width: 340,
          gridTemplateRows: "minmax(0, 1fr)",
          gridTemplateColumns: "minmax(0, 1fr)",
          gridTemplateAreas: '"objects"',
        }}
      >
        <ObjectsPanel session={created} view={view} />
      </div>
      <div
        style={{
          display: "grid",
          height: 120,
          width: 340,
          gridTemplateRows: "minmax(0, 1fr)",
          gridTemplateColumns: "minmax(0, 1fr)",
          gridTemplateAreas: '"objects"',
        }}
      >
        <ObjectsPanel session={looping} view={new ViewStore({ selectedKeys: [HOT] })} />
      </div>
      <main className="center">
        <Legend view={view} onHelp={() => {}} />
        <Overview session={created} view={view} />
      </main>
      <section className="panel bottom">
        <CountsTable excerpt={created.excerpt(KEY)!.excerpt} />
        <CountsTable excerpt={looping.excerpt(HOT)!.excerpt} />
        <FindingsList findings={findings} view={view} focusKey={KEY} />
        <DiagnosticsList
          diagnostics={[
            { line: 3, message: "not a JSON record" },
            { line: 5, level: "warn", message: "torn last line" },
          ]}
        />
      </section>
      <WorkshopDock session={created} view={view} />
      {/* The diagram in its busiest look, both layouts: every part lit, keys queued, parked and
          in flight (the focused one outlined), a 409 and the echo — the dock's own step shows
          an idle machine. On the dock's background. */}
      {[ROW_LAYOUT, COLUMN_LAYOUT].map((layout) => (
        <div key={layout.name} style={{ background: "var(--panel)", width: 700, height: 300 }}>
          <MachineryDiagram
            state={BUSY}
            parts={["informer", "handler", "workqueue", "worker", "lister", "api"]}
            focusKey={KEY}
            workers={2}
            self
            layout={layout}
          />
        </div>
      ))}
      <WorkshopDock session={looping} view={new ViewStore({ selectedKeys: [HOT] })} />
    </div>
  );
}

const KEY = "default/example-foo";
const HOT = "default/hot-foo";

const BUSY: MachineryState = {
  seq: 12,
  queue: [KEY, HOT, "default/a", "default/b", "default/c", "default/d"],
  parked: [KEY, HOT],
  workers: { 1: KEY, 2: HOT },
  lastWrite: {
    seq: 11,
    key: KEY,
    verb: "update",
    target: "foos/status",
    code: 409,
    reason: "Conflict",
  },
  lastWatch: { seq: 12, kind: "Foo", event: "update", name: "example-foo", rv: "1042" },
};

async function renderIn(theme: "light" | "dark", presenter: boolean) {
  document.documentElement.dataset.theme = theme;
  sessionStorage.setItem("loopscope-workshop-open", "1");
  localStorage.setItem("loopscope-presenter", presenter ? "on" : "off");
  const created = sessionFromText(canonical);
  const looping = sessionFromText(hotLoop);
  const view = new ViewStore({ selectedKeys: [KEY] });
  await render(<Page created={created} looping={looping} view={view} />);
  await expect.poll(() => document.querySelectorAll('[data-testid="workshop"]').length).toBe(2);
  if (presenter) expect(document.documentElement.dataset.presenter).toBe("on");
  return [...measure(document.body), ...measureSvg(document.body)];
}

afterEach(() => {
  delete document.documentElement.dataset.theme;
  sessionStorage.removeItem("loopscope-workshop-open");
  localStorage.removeItem("loopscope-presenter");
});

/** Elements the QA pass found under 4.5:1: each must be among those measured. */
const MUST_MEASURE = [
  '[data-testid="count-observed"]',
  '[data-testid="object-row"][aria-selected="true"] td.self',
  '[data-testid="object-state"]',
  ".status.open",
  ".legend .cross",
  '.segmented button[aria-pressed="true"]',
  '[data-testid="workshop-quiescent"]',
  '[data-testid="workshop-hot-loop"]',
  ".step-controls .primary",
  '.workshop-bar [role="tab"][aria-selected="true"]',
  ".badge.bad",
  ".badge.warn",
  // SVG text: the machinery diagram's box titles, their lines, the queue's slots, the echo's
  // label, and the overview's name.
  ".machinery .title",
  ".machinery .sub",
  ".machinery .slot-text",
  ".machinery .echo-label.active",
  ".machinery .box.active .sub",
  ".machinery .bad-text",
  ".machinery .focus-text",
  ".overview-label",
];

describe("text contrast (WCAG AA)", () => {
  for (const [theme, presenter] of [
    ["light", false],
    ["dark", false],
    ["light", true],
    ["dark", true],
  ] as const) {
    it(`${theme} theme${presenter ? ", presenter mode" : ""}: every text reads at 4.5:1 (3:1 if large)`, async () => {
      const measured = await renderIn(theme, presenter);
      for (const sel of MUST_MEASURE) {
        // Presenter mode hides them.
        if (presenter && (sel.startsWith(".segmented") || sel === ".overview-label")) continue;
        expect(
          measured.some((m) => m.el.matches(sel) || m.el.closest(sel)),
          `${sel} measured`,
        ).toBe(true);
      }
      const failing = measured
        .filter((m) => m.ratio < m.needed)
        .map(
          (m) =>
            `${m.el.tagName.toLowerCase()}.${String(m.el.className).replace(/ /g, ".")} "${m.text.slice(0, 30)}" ${m.ratio.toFixed(2)} < ${m.needed}`,
        );
      expect(failing).toEqual([]);
    });
  }

  it("the canvas's self-triggered pass label reads at 4.5:1 on the header row and the lanes, in every theme", () => {
    for (const [name, t] of Object.entries(THEMES))
      for (const bg of [t.panel, t.background, t.laneAlt])
        expect(contrast(hex(t.selfText), hex(bg)), `${name} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });
});
