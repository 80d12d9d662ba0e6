/**
 * Paints the timeline on a 2D canvas from the store, the analysis and a layout. Owns no state:
 * every frame is a function of its inputs.
 *
 * Level of detail: only the visible time range of a key's rows is scanned (binary search on ts,
 * TraceStore.rowRange); per lane at most one mark per device pixel column is painted (a million
 * events in view cost one pass over the visible rows and ~width paints per lane); labels only
 * where the previous label on the lane leaves room.
 */
import type { Pass } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ThemeColors } from "../ui/palette.ts";
import {
  GROUP_HEADER,
  passBands,
  placePassLabels,
  startsNewLife,
  type GroupBox,
} from "./layout.ts";
import { markStyle, type Glyph } from "./marks.ts";
import { formatRelative, formatWall, GUTTER, type TimeAxis } from "./timeScale.ts";

export const AXIS_HEIGHT = 38;
const FONT = "12px system-ui, -apple-system, 'Segoe UI', sans-serif";
const FONT_SMALL = "11px system-ui, -apple-system, 'Segoe UI', sans-serif";
const FONT_BOLD = "600 12px system-ui, -apple-system, 'Segoe UI', sans-serif";

export interface DrawInput {
  session: TraceSession;
  groups: GroupBox[];
  axis: TimeAxis;
  width: number;
  height: number;
  theme: ThemeColors;
  /** Events later than this are not drawn (replay playhead); Infinity = all. */
  until: number;
  selectedSeq?: number;
  selectedPass?: { key: string; index: number };
  /** Vertical scroll offset of the lane area, px. */
  scrollY: number;
}

const hatchCache = new Map<string, CanvasPattern | null>();

function hatch(ctx: CanvasRenderingContext2D, color: string): CanvasPattern | null {
  let p = hatchCache.get(color);
  if (p === undefined) {
    const c = document.createElement("canvas");
    c.width = c.height = 8;
    const g = c.getContext("2d")!;
    g.strokeStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    g.moveTo(-2, 10);
    g.lineTo(10, -2);
    g.moveTo(-2, 2);
    g.lineTo(2, -2);
    g.moveTo(6, 10);
    g.lineTo(10, 6);
    g.stroke();
    p = ctx.createPattern(c, "repeat");
    hatchCache.set(color, p);
  }
  return p;
}

function glyph(ctx: CanvasRenderingContext2D, g: Glyph, x: number, y: number, r: number): void {
  ctx.beginPath();
  switch (g) {
    case "tick":
      ctx.fillRect(x - 1, y - r - 2, 2, 2 * r + 4);
      return;
    case "diamond":
    case "hollow-diamond":
      ctx.moveTo(x, y - r - 1);
      ctx.lineTo(x + r + 1, y);
      ctx.lineTo(x, y + r + 1);
      ctx.lineTo(x - r - 1, y);
      ctx.closePath();
      if (g === "diamond") ctx.fill();
      else {
        ctx.lineWidth = 2;
        ctx.stroke();
      }
      return;
    case "triangle":
      ctx.moveTo(x - r + 1, y - r);
      ctx.lineTo(x + r, y);
      ctx.lineTo(x - r + 1, y + r);
      ctx.closePath();
      ctx.fill();
      return;
    case "circle":
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
      return;
    case "square":
      ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
      return;
    case "cross":
      ctx.lineWidth = 2.5;
      ctx.moveTo(x - r, y - r);
      ctx.lineTo(x + r, y + r);
      ctx.moveTo(x + r, y - r);
      ctx.lineTo(x - r, y + r);
      ctx.stroke();
      return;
  }
}

/** Paints one frame; returns the highest seq among the marks it drew (0 when none). */
export function drawTimeline(ctx: CanvasRenderingContext2D, input: DrawInput): number {
  const { session, groups, axis, width, height, theme, until, scrollY } = input;
  const store = session.store;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  drawGrid(ctx, input);

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, AXIS_HEIGHT, width, height - AXIS_HEIGHT);
  ctx.clip();
  ctx.translate(0, AXIS_HEIGHT - scrollY);

  const lastTs = Number.isFinite(until) ? until : (store.timeExtent()?.[1] ?? 0);
  let drawnSeq = 0;
  for (const g of groups) {
    if (g.y + g.height < scrollY || g.y > scrollY + height) continue;
    drawGroupFrame(ctx, g, width, theme);
    const passes = session.passesOf(g.key).filter((p) => p.start <= until);
    drawBands(ctx, g, passes, input, lastTs);
    drawnSeq = Math.max(drawnSeq, drawMarks(ctx, g, input));
  }
  drawArrows(ctx, input);
  ctx.restore();

  if (Number.isFinite(until)) {
    const px = axis.x(until);
    if (px >= GUTTER && px <= width) {
      ctx.fillStyle = theme.text;
      ctx.fillRect(px - 1, AXIS_HEIGHT - 6, 2, height);
    }
  }
  return drawnSeq;
}

function drawGrid(ctx: CanvasRenderingContext2D, { axis, width, height, theme }: DrawInput): void {
  const ticks = axis.scale.ticks(Math.max(2, Math.floor((width - GUTTER) / 110)));
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, 0, width, AXIS_HEIGHT);
  ctx.font = FONT_SMALL;
  ctx.textBaseline = "top";
  // Ticks under a millisecond apart need the microseconds to tell them apart.
  const wall = (t: number) => formatWall(axis.origin + t * 1000, step < 1);
  // d3 may give up to twice the ticks asked for: label every k-th where the labels (the wall
  // clock's "09:14:06.043" is the wider) would run into each other; every tick keeps its line.
  const widest = ticks.reduce(
    (w, t) =>
      Math.max(w, ctx.measureText(wall(t)).width, ctx.measureText(formatRelative(t, step)).width),
    0,
  );
  const spacing = ticks.length > 1 ? Math.abs(axis.scale(ticks[1]) - axis.scale(ticks[0])) : width;
  const every = Math.max(1, Math.ceil((widest + 10) / Math.max(1, spacing)));
  for (const t of ticks) {
    const px = Math.round(axis.scale(t)) + 0.5;
    if (px < GUTTER) continue;
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px, AXIS_HEIGHT - 6);
    ctx.lineTo(px, height);
    ctx.stroke();
    if (Math.round(t / step) % every !== 0) continue;
    // A label the edge would cut reads as another time ("+3" for "+3.5 s"): the line stays.
    if (px + 3 + widest > width) continue;
    ctx.fillStyle = theme.text;
    ctx.fillText(formatRelative(t, step), px + 3, 4);
    ctx.fillStyle = theme.muted;
    ctx.fillText(wall(t), px + 3, 19);
  }
  ctx.fillStyle = theme.muted;
  ctx.fillText("since creation", 6, 4);
  ctx.fillText("wall clock UTC", 6, 19);
}

function drawGroupFrame(
  ctx: CanvasRenderingContext2D,
  g: GroupBox,
  width: number,
  theme: ThemeColors,
): void {
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, g.y, width, GROUP_HEADER);
  ctx.fillStyle = theme.text;
  ctx.font = FONT_BOLD;
  ctx.textBaseline = "middle";
  ctx.fillText(g.key, 8, g.y + GROUP_HEADER / 2);
  ctx.font = FONT;
  g.lanes.forEach((lane, i) => {
    ctx.fillStyle = i % 2 ? theme.laneAlt : theme.background;
    ctx.fillRect(0, lane.y, width, lane.height);
    ctx.fillStyle = theme.muted;
    ctx.fillText(lane.stage, 18, lane.y + lane.height / 2);
  });
  ctx.strokeStyle = theme.grid;
  ctx.beginPath();
  ctx.moveTo(GUTTER - 0.5, g.lanesY);
  ctx.lineTo(GUTTER - 0.5, g.y + g.height);
  ctx.stroke();
}

function drawBands(
  ctx: CanvasRenderingContext2D,
  g: GroupBox,
  passes: readonly Pass[],
  { session, axis, width, selectedPass, theme }: DrawInput,
  lastTs: number,
): void {
  const bands = passBands(passes, g, axis.x, width, lastTs);
  ctx.font = FONT_BOLD;
  // Pass labels share the header row with the key's name: start after it.
  const nameEnd = 8 + ctx.measureText(g.key).width;
  for (const b of bands) {
    const x0 = Math.max(b.x0, GUTTER);
    const x1 = Math.min(b.x1, width);
    if (x1 <= x0) continue;
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = b.style.color;
    ctx.fillRect(x0, b.y, x1 - x0, b.height);
    ctx.globalAlpha = 1;
    if (b.style.hatch) {
      const p = hatch(ctx, b.style.color);
      if (p) {
        ctx.globalAlpha = 0.55;
        ctx.fillStyle = p;
        ctx.fillRect(x0, b.y, x1 - x0, b.height);
        ctx.globalAlpha = 1;
      }
    }
    if (startsNewLife(b.pass)) {
      // A Foo created again under the same name: its passes count from 1 again from here.
      const lx = Math.round(axis.x(lifeStart(session, b.pass))) - 3.5;
      if (lx >= GUTTER) {
        ctx.strokeStyle = theme.text;
        ctx.lineWidth = 1;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(lx, b.y);
        ctx.lineTo(lx, b.y + b.height);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    ctx.fillStyle = b.style.color;
    ctx.fillRect(x0, b.y, Math.min(3, x1 - x0), b.height);
    // The cause chip sits in the header row above its band.
    ctx.fillRect(x0, g.y + GROUP_HEADER - 4, x1 - x0, 4);
    const sel =
      selectedPass && selectedPass.key === b.pass.key && selectedPass.index === b.pass.index;
    if (sel) {
      ctx.strokeStyle = theme.selection;
      ctx.lineWidth = 2;
      ctx.strokeRect(x0 + 1, b.y + 1, x1 - x0 - 2, b.height - 2);
    }
  }
  ctx.font = FONT_SMALL;
  ctx.textBaseline = "middle";
  const measure = (label: string) => ctx.measureText(label).width;
  for (const { band: b, x } of placePassLabels(bands, measure, GUTTER, nameEnd, width)) {
    ctx.fillStyle = theme.panel;
    ctx.fillRect(x - 2, g.y + 2, measure(b.label) + 4, GROUP_HEADER - 8);
    ctx.fillStyle = b.pass.cause === "self" ? b.style.color : theme.text;
    ctx.fillText(b.label, x, g.y + GROUP_HEADER / 2 - 1);
  }
}

/** When a Foo's new life began: the watch event of the re-created Foo's add, else its first pass. */
function lifeStart(session: TraceSession, first: Pass): number {
  let ts = first.start;
  for (const t of first.triggers) {
    const row = t.watchSeq !== undefined ? session.store.rowOfSeq(t.watchSeq) : -1;
    if (row >= 0) ts = Math.min(ts, session.store.ts.get(row));
  }
  return ts;
}

/**
 * The key's marks in view; returns the highest seq among them (a mark merged into an already
 * painted pixel column counts as drawn: that column shows it).
 */
function drawMarks(ctx: CanvasRenderingContext2D, g: GroupBox, input: DrawInput): number {
  const { session, axis, width, until, selectedSeq, theme } = input;
  const store = session.store;
  const rows = store.rowsOf(g.key);
  const lastPx = new Float64Array(5).fill(-Infinity);
  const ts = store.ts.data;
  const stage = store.stage.data;
  const seqs = store.seq.data;
  let drawnSeq = 0;
  const r = Math.max(3, Math.min(6, g.lanes[0].height / 5));
  // Painted marks per lane, kept for the label pass: a label goes only where it does not run
  // into the next mark or the previous label.
  const painted: { x: number; row: number }[][] = [[], [], [], [], []];
  let selected: { x: number; y: number } | undefined;
  // Only what is on screen (plus a mark's radius) is scanned.
  const [from, to] = store.rowRange(
    g.key,
    rows,
    axis.invert(GUTTER - r - 1),
    Math.min(until, axis.invert(width + r + 1)),
  );
  for (let i = from; i < to; i++) {
    const row = rows[i];
    const s = stage[row];
    if (s > 4) continue;
    const t = ts[row];
    if (t > until) continue;
    const x = axis.x(t);
    if (x < GUTTER - r || x > width + r) continue;
    const lane = g.lanes[s];
    const y = lane.y + lane.height / 2;
    if (seqs[row] > drawnSeq) drawnSeq = seqs[row];
    if (selectedSeq !== undefined && seqs[row] === selectedSeq) selected = { x, y };
    const px = Math.round(x);
    if (px === lastPx[s]) continue;
    lastPx[s] = px;
    const m = markStyle(store, row);
    ctx.fillStyle = m.color;
    ctx.strokeStyle = m.color;
    glyph(ctx, m.glyph, x, y, r);
    painted[s].push({ x, row });
  }
  ctx.font = FONT_SMALL;
  ctx.textBaseline = "middle";
  ctx.fillStyle = theme.text;
  for (let s = 0; s < 5; s++) {
    const marks = painted[s];
    if (marks.length > width / 4) continue; // too dense for any label
    marks.sort((a, b) => a.x - b.x);
    const y = g.lanes[s].y + g.lanes[s].height / 2;
    let labelEnd = -Infinity;
    for (let i = 0; i < marks.length; i++) {
      const { x, row } = marks[i];
      if (x - r < labelEnd + 2) continue;
      const label = markStyle(store, row).label;
      if (!label) continue;
      const w = ctx.measureText(label).width;
      const next = i + 1 < marks.length ? marks[i + 1].x : Infinity;
      if (x + r + 4 + w > next - r - 2 || x + r + 4 + w > width) continue;
      ctx.fillText(label, x + r + 4, y);
      labelEnd = x + r + 4 + w;
    }
  }
  if (selected) {
    ctx.strokeStyle = theme.selection;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(selected.x, selected.y, r + 4, 0, Math.PI * 2);
    ctx.stroke();
  }
  return drawnSeq;
}

/** Centre of the mark of the event with this seq, if it is on a drawn lane. */
function markPoint(
  input: DrawInput,
  seq: number | undefined,
): { x: number; y: number } | undefined {
  if (seq === undefined) return undefined;
  const store = input.session.store;
  const row = store.rowOfSeq(seq);
  if (row < 0) return undefined;
  const s = store.stage.get(row);
  const key = store.keys.value(store.key.get(row)) ?? "";
  const g = input.groups.find((gr) => gr.key === key);
  if (!g || s > 4) return undefined;
  const lane = g.lanes[s];
  return { x: input.axis.x(store.ts.get(row)), y: lane.y + lane.height / 2 };
}

/**
 * Causal arrows of the selected pass: our write → the watch event echoing it → the enqueue(s) →
 * the dequeue that merged them.
 */
function drawArrows(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const sel = input.selectedPass;
  if (!sel) return;
  const pass = input.session.passesOf(sel.key)[sel.index];
  if (!pass) return;
  ctx.strokeStyle = input.theme.selection;
  ctx.fillStyle = input.theme.selection;
  ctx.lineWidth = 1.75;
  const deq = markPoint(input, pass.dequeueSeq);
  for (const t of pass.triggers) {
    const chain = [t.writeSeq, t.watchSeq, t.enqueueSeq].map((s) => markPoint(input, s));
    chain.push(deq);
    let prev: { x: number; y: number } | undefined;
    for (const p of chain) {
      if (p && prev) arrow(ctx, prev, p);
      if (p) prev = p;
    }
  }
}

function arrow(
  ctx: CanvasRenderingContext2D,
  a: { x: number; y: number },
  b: { x: number; y: number },
): void {
  const mx = (a.x + b.x) / 2;
  ctx.beginPath();
  ctx.moveTo(a.x, a.y);
  ctx.bezierCurveTo(mx, a.y, mx, b.y, b.x, b.y);
  ctx.stroke();
  const ang = Math.atan2(b.y - a.y, b.x - mx || 0.001);
  const len = 8;
  ctx.beginPath();
  ctx.moveTo(b.x, b.y);
  ctx.lineTo(b.x - len * Math.cos(ang - 0.45), b.y - len * Math.sin(ang - 0.45));
  ctx.lineTo(b.x - len * Math.cos(ang + 0.45), b.y - len * Math.sin(ang + 0.45));
  ctx.closePath();
  ctx.fill();
}
