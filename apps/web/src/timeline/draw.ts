/**
 * Paints the timeline on a 2D canvas from the store, the analysis and a layout. Owns no state:
 * every frame is a function of its inputs.
 *
 * Level of detail: only the visible time range of a key's rows is scanned (binary search on ts,
 * TraceStore.rowRange); per lane at most one mark per pixel column is shown, and marks of one
 * style whose glyphs overlap are painted as one shape (markRuns.ts): a million events in view
 * cost one pass over the visible rows and a handful of fills per lane; labels only where the
 * previous label on the lane leaves room.
 */
import type { Pass, Stage } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ThemeColors } from "../ui/palette.ts";
import { bandRuns, edgeEnd, type BandPiece } from "./bandRuns.ts";
import {
  MIN_BAND_PX,
  passBands,
  placePassLabels,
  startsNewLife,
  type GroupBox,
  type PassBand,
} from "./layout.ts";
import { markRuns, type MarkRun, type PaintedMark } from "./markRuns.ts";
import { markStyle, type Glyph } from "./marks.ts";
import { passRange } from "./passRange.ts";
import { textMeasure } from "./textWidth.ts";
import { formatGap, formatRelative, formatWall, GUTTER, type TimeAxis } from "./timeScale.ts";

/** The axis row's height at type scale 1. */
export const AXIS_HEIGHT = 38;
const FAMILY = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** The axis row's height at the input's type scale (presenter mode draws bigger type). */
export function axisHeight(input: { typeScale?: number }): number {
  return Math.round(AXIS_HEIGHT * (input.typeScale ?? 1));
}

/** Where a lane's name starts where it has room, and how far left of the plot it ends at least:
 * a mark at the plot's edge reaches 6 px into the gutter. */
const LANE_NAME_X = 18;
const LANE_NAME_CLEAR = 8;

function fonts(scale: number) {
  const px = (n: number) => `${Math.round(n * scale * 10) / 10}px`;
  return {
    normal: `${px(12)} ${FAMILY}`,
    small: `${px(11)} ${FAMILY}`,
    bold: `600 ${px(12)} ${FAMILY}`,
  };
}

/** A text the frame drew, and where (canvas px). */
export interface DrawnLabel {
  kind: "pass" | "mark" | "tick" | "break" | "unseen" | "absent" | "lane";
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** The pass a pass label names (key + index). */
  pass?: { key: string; index: number };
}

/** A pass band as drawn (clipped to the lanes), for tests and the screenshot script. */
export interface DrawnPass {
  key: string;
  index: number;
  number: number;
  cause: string;
  x0: number;
  x1: number;
  /** Whether its Foo's header row, where pass labels go, is in sight (not scrolled under the axis). */
  headerInView: boolean;
}

/**
 * What a frame drew, in the layout's own coordinates: the geometry the e2e checks read (pass
 * widths, overlapping labels) from the same computation that paints, not from pixels.
 */
export interface DrawnGeometry {
  passes: DrawnPass[];
  labels: DrawnLabel[];
  /** Folded gaps with their break mark drawn at `mid` (±BREAK_HALF px) down the lanes. */
  breaks: { x0: number; x1: number; us: number; mid: number }[];
  /** Marks shown: one per lane pixel column that has any (the first event in it). */
  marks: number;
  /** Shapes painted for them: a run of overlapping marks is one (see markRuns.ts). */
  markShapes: number;
}

/** A geometry for a frame to fill. */
export function emptyGeometry(): DrawnGeometry {
  return { passes: [], labels: [], breaks: [], marks: 0, markShapes: 0 };
}

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
  /** Type size factor: 1, or more for a projector (presenter mode). */
  typeScale?: number;
  /** When given, filled with what the frame drew (see DrawnGeometry). */
  geometry?: DrawnGeometry;
  /** Lanes the trace could not see (a proxy's: enqueue, dequeue, read): hatched and said so. */
  unseen?: readonly Stage[];
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

/**
 * A run of overlapping marks as the one shape their glyphs make together (see markRuns.ts): the
 * glyph at each end and what lies between; a single mark is its glyph.
 */
function drawRun(ctx: CanvasRenderingContext2D, run: MarkRun, y: number, r: number): void {
  const { x0: a, x1: b, style } = run;
  ctx.fillStyle = style.color;
  ctx.strokeStyle = style.color;
  if (run.count === 1 || a === b) {
    glyph(ctx, style.glyph, a, y, r);
    return;
  }
  ctx.beginPath();
  switch (style.glyph) {
    case "tick":
      ctx.fillRect(a - 1, y - r - 2, b - a + 2, 2 * r + 4);
      return;
    case "square":
      ctx.fillRect(a - r, y - r, b - a + 2 * r, 2 * r);
      return;
    case "circle":
      ctx.arc(a, y, r, Math.PI / 2, (Math.PI * 3) / 2);
      ctx.arc(b, y, r, -Math.PI / 2, Math.PI / 2);
      break;
    case "diamond":
      ctx.moveTo(a, y - r - 1);
      ctx.lineTo(b, y - r - 1);
      ctx.lineTo(b + r + 1, y);
      ctx.lineTo(b, y + r + 1);
      ctx.lineTo(a, y + r + 1);
      ctx.lineTo(a - r - 1, y);
      break;
    case "triangle":
      ctx.moveTo(a - r + 1, y - r);
      ctx.lineTo(b - r + 1, y - r);
      ctx.lineTo(b + r, y);
      ctx.lineTo(b - r + 1, y + r);
      ctx.lineTo(a - r + 1, y + r);
      break;
    default:
      // Outlined glyphs are never merged (markRuns); drawn one by one should one get here.
      glyph(ctx, style.glyph, a, y, r);
      glyph(ctx, style.glyph, b, y, r);
      return;
  }
  ctx.closePath();
  ctx.fill();
}

/** Paints one frame; returns the highest seq among the marks it drew (0 when none). */
export function drawTimeline(ctx: CanvasRenderingContext2D, input: DrawInput): number {
  const { session, groups, axis, width, height, theme, until, scrollY } = input;
  const store = session.store;
  const top = axisHeight(input);
  if (input.geometry) {
    input.geometry.passes.length = 0;
    input.geometry.labels.length = 0;
    input.geometry.breaks.length = 0;
    input.geometry.marks = 0;
    input.geometry.markShapes = 0;
  }
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  drawGrid(ctx, input);

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, top, width, height - top);
  ctx.clip();
  ctx.translate(0, top - scrollY);

  const lastTs = Number.isFinite(until) ? until : (store.timeExtent()?.[1] ?? 0);
  let drawnSeq = 0;
  const axisLabels = input.geometry?.labels.length ?? 0;
  for (const g of groups) {
    if (g.y + g.height < scrollY || g.y > scrollY + height) continue;
    drawGroupFrame(ctx, g, input);
    // Only the passes that can reach into view (see passRange), none past the playhead.
    const all = session.passesOf(g.key);
    const [from, to] = passRange(
      all,
      axis.invert(-MIN_BAND_PX - 1),
      Math.min(until, axis.invert(width + 1)),
    );
    const passes = all.slice(from, to).filter((p) => p.start <= until);
    drawBands(ctx, g, passes, input, lastTs);
    drawnSeq = Math.max(drawnSeq, drawMarks(ctx, g, input));
  }
  // A group scrolled half out of sight: its labels above the lanes' clip were not drawn (the axis
  // is there), so the geometry does not say they were.
  if (input.geometry) {
    const { labels } = input.geometry;
    const kept = labels.slice(axisLabels).filter((l) => l.y >= top);
    labels.length = axisLabels;
    labels.push(...kept);
  }
  drawBreaks(ctx, input);
  drawArrows(ctx, input);
  ctx.restore();
  drawBreakLabels(ctx, input);

  if (Number.isFinite(until)) {
    const px = axis.x(until);
    if (px >= GUTTER && px <= width) {
      ctx.fillStyle = theme.text;
      ctx.fillRect(px - 1, top - 6, 2, height);
    }
  }
  return drawnSeq;
}

function drawGrid(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { axis, width, height, theme } = input;
  const scale = input.typeScale ?? 1;
  const top = axisHeight(input);
  const f = fonts(scale);
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, 0, width, top);
  ctx.font = f.small;
  ctx.textBaseline = "top";
  // Ticks under a millisecond apart need the microseconds to tell them apart.
  const wall = (ms: number, step: number) => formatWall(axis.origin + ms * 1000, step < 1);
  const row2 = Math.round(19 * scale);
  const breaks = axis.breaks();
  const gutterWords = axisWords(input);
  const gutterEnd = 6 + Math.max(...gutterWords.map((w) => textMeasure(ctx)(w)));
  // A tick label runs into neither the one before it nor a break's label, and is never cut by
  // the edge (a cut "+3" would read as another time than "+3.5 s").
  let end = -Infinity;
  const ticks = axis.ticks(110 * scale).filter((t) => {
    const px = Math.round(t.px) + 0.5;
    return px >= GUTTER && px <= width;
  });
  // One unit and one precision for the axis: a folded axis's stretches each have their own step,
  // and "+0.04 s" stood beside "+0.140 s".
  const farMs = Math.max(0, ...ticks.map((t) => Math.abs(t.ms)));
  const stepMs = Math.min(...ticks.map((t) => t.stepMs));
  for (const t of ticks) {
    const px = Math.round(t.px) + 0.5;
    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px, top - 6);
    ctx.lineTo(px, height);
    ctx.stroke();
    const rel = formatRelative(t.ms, stepMs, farMs);
    const relW = textMeasure(ctx)(rel);
    const w = Math.max(relW, textMeasure(ctx)(wall(t.ms, t.stepMs)));
    const x = px + 3;
    if (x < end + 10 || x < gutterEnd + 6 || x + w > width) continue;
    // A break's label shares the wall clock's row, not the first: a tick beside one gives its
    // time since the origin alone (a burst's folded axis, a break every pass or two, had none).
    const full = !breaks.some((b) => x < b.x1 && x + w > b.x0);
    ctx.fillStyle = theme.text;
    ctx.fillText(rel, x, 4);
    if (full) {
      ctx.fillStyle = theme.muted;
      ctx.fillText(wall(t.ms, t.stepMs), x, row2);
    }
    end = x + (full ? w : relW);
    const h = full ? row2 + 12 * scale - 4 : 12 * scale;
    input.geometry?.labels.push({ kind: "tick", text: rel, x, y: 4, w: full ? w : relW, h });
  }
  ctx.fillStyle = theme.muted;
  ctx.fillText(gutterWords[0], 6, 4);
  ctx.fillText(gutterWords[1], 6, row2);
  const h = row2 + 12 * scale - 4;
  input.geometry?.labels.push({
    kind: "tick",
    text: gutterWords[0],
    x: 6,
    y: 4,
    w: gutterEnd - 6,
    h,
  });
}

/** Where the axis row's own words end: labels drawn after them start past this. */
function gutterWordsEnd(ctx: CanvasRenderingContext2D, input: DrawInput): number {
  ctx.font = fonts(input.typeScale ?? 1).small;
  return 6 + Math.max(...axisWords(input).map((w) => textMeasure(ctx)(w)));
}

/**
 * The axis row's own words. Linear time counts from the first Foo's first event (Timeline's
 * origin): its creation, or — a Foo that existed before the run — the informer's initial list.
 */
function axisWords(input: DrawInput): [string, string] {
  if (input.axis.fold) return ["folded time", "wall clock UTC"];
  const first = input.groups[0]?.key;
  const listed = first !== undefined && input.session.summaryOf(first)?.listed === true;
  return [listed ? "since initial list" : "since creation", "wall clock UTC"];
}

/**
 * Break marks of folded gaps: a pair of slanted lines down the lanes (and, drawBreakLabels, the
 * gap's real length in the axis row: "412 ms"), so nobody reads the folded width as time.
 */
/** Half the width of a break mark down the lanes, px. */
const BREAK_HALF = 5;

/** Where a folded gap's break mark is drawn, or undefined when too little of it is in view. */
function breakMid(b: { x0: number; x1: number }, width: number): number | undefined {
  const x0 = Math.max(b.x0, GUTTER);
  const x1 = Math.min(b.x1, width);
  return x1 - x0 < 6 ? undefined : (x0 + x1) / 2;
}

function drawBreaks(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { axis, groups, theme, width } = input;
  const breaks = axis.breaks();
  if (breaks.length === 0 || groups.length === 0) return;
  for (const b of breaks) {
    const mid = breakMid(b, width);
    if (mid === undefined) continue;
    // Down each group's lanes (its header row keeps the key's name and the pass labels clear).
    for (const g of groups) {
      const y0 = g.lanesY;
      const y1 = g.y + g.height;
      ctx.fillStyle = theme.background;
      ctx.globalAlpha = 0.55;
      ctx.fillRect(mid - BREAK_HALF, y0, 2 * BREAK_HALF, y1 - y0);
      ctx.globalAlpha = 1;
      ctx.strokeStyle = theme.muted;
      ctx.lineWidth = 1.25;
      ctx.setLineDash([]);
      for (const dx of [-3, 3]) {
        ctx.beginPath();
        ctx.moveTo(mid + dx - 2, y1);
        ctx.lineTo(mid + dx + 2, y0);
        ctx.stroke();
      }
    }
    input.geometry?.breaks.push({ x0: b.x0, x1: b.x1, us: b.us, mid });
  }
}

/** The folded gaps' lengths, in the axis row (drawn outside the lanes' clip). */
function drawBreakLabels(ctx: CanvasRenderingContext2D, input: DrawInput): void {
  const { axis, theme, width } = input;
  const scale = input.typeScale ?? 1;
  const top = axisHeight(input);
  const breaks = axis.breaks();
  let end = gutterWordsEnd(ctx, input);
  ctx.font = fonts(scale).small;
  ctx.textBaseline = "middle";
  for (const b of breaks) {
    const x0 = Math.max(b.x0, GUTTER);
    const x1 = Math.min(b.x1, width);
    const text = formatGap(b.us);
    const w = textMeasure(ctx)(text);
    const x = (x0 + x1) / 2 - w / 2;
    if (x < end + 4 || x < GUTTER || x + w > width || x1 - x0 < 6) continue;
    const y = top - 9 * scale;
    ctx.fillStyle = theme.panel;
    ctx.fillRect(x - 2, y - 7 * scale, w + 4, 14 * scale);
    ctx.fillStyle = theme.muted;
    ctx.fillText(text, x, y);
    end = x + w;
    input.geometry?.labels.push({ kind: "break", text, x, y: y - 6 * scale, w, h: 12 * scale });
  }
}

/** What an unseen lane holds instead (see stageLines.ts OFF_THE_WIRE). */
const UNSEEN_SAYS: Partial<Record<Stage, string>> = {
  enqueue: "inferred",
  dequeue: "unseen",
  read: "API GETs only",
};

/**
 * A group's title: its key, cut in the middle past ~260 px (the end of a name is
 * what tells Foos apart), so a long name leaves the header row's pass labels room. In the
 * context's current font; the objects table and the details panel show it whole.
 */
function groupTitle(ctx: CanvasRenderingContext2D, key: string, width: number): string {
  const max = Math.max(160, Math.min(width / 4, 260));
  const full = textMeasure(ctx)(key);
  if (full <= max) return key;
  // Drawn every frame: start from the proportional guess, not from the whole key.
  let keep = Math.floor((key.length * max) / full);
  const cut = (n: number) =>
    key.slice(0, Math.ceil(n / 2)) + "…" + key.slice(key.length - Math.floor(n / 2));
  while (keep > 2 && textMeasure(ctx)(cut(keep)) > max) keep--;
  return cut(keep);
}

function drawGroupFrame(ctx: CanvasRenderingContext2D, g: GroupBox, input: DrawInput): void {
  const { width, theme } = input;
  const f = fonts(input.typeScale ?? 1);
  const header = g.lanesY - g.y;
  ctx.fillStyle = theme.panel;
  ctx.fillRect(0, g.y, width, header);
  ctx.fillStyle = theme.text;
  ctx.font = f.bold;
  ctx.textBaseline = "middle";
  const title = groupTitle(ctx, g.key, width);
  ctx.fillText(title, 8, g.y + header / 2);
  const titleEnd = 8 + textMeasure(ctx)(title);
  // The geometry is in canvas px; the group draws translated under the axis, scrolled.
  const dy = axisHeight(input) - input.scrollY;
  ctx.font = f.normal;
  if (input.session.progress.done && input.session.store.rowsOf(g.key).length === 0) {
    // A Foo named by a link or a search that this trace does not have: said, not left blank.
    ctx.fillStyle = theme.muted;
    const text = "— not in this trace";
    ctx.fillText(text, titleEnd + 8, g.y + header / 2);
    input.geometry?.labels.push({
      kind: "absent",
      text,
      x: titleEnd + 8,
      y: g.y + dy,
      w: textMeasure(ctx)(text),
      h: header,
    });
  }
  // Indented where there is room; on a projector's bigger type, moved left so "dequeue" ends
  // clear of a mark at the plot's edge (it ran into the pass's first marks at 1920×1080).
  const laneName = (stage: string) => textMeasure(ctx)(stage);
  const laneLabel = (text: string, y: number) =>
    input.geometry?.labels.push({
      kind: "lane",
      text,
      x: nameX,
      y: y - nameH / 2 + dy,
      w: laneName(text),
      h: nameH,
    });
  const nameH = 12 * (input.typeScale ?? 1);
  const nameX = Math.max(
    4,
    Math.min(
      LANE_NAME_X,
      GUTTER - LANE_NAME_CLEAR - Math.max(...g.lanes.map((l) => laneName(l.stage))),
    ),
  );
  g.lanes.forEach((lane, i) => {
    ctx.fillStyle = i % 2 ? theme.laneAlt : theme.background;
    ctx.fillRect(0, lane.y, width, lane.height);
    const mid = lane.y + lane.height / 2;
    ctx.fillStyle = theme.muted;
    if (input.unseen?.includes(lane.stage)) {
      // Not "nothing happened" but "nothing could be seen": hatched, and said under its name.
      ctx.fillStyle = hatch(ctx, theme.grid) ?? theme.laneAlt;
      ctx.fillRect(GUTTER, lane.y, width - GUTTER, lane.height);
      ctx.fillStyle = theme.muted;
      const nameY = mid - 6 * (input.typeScale ?? 1);
      ctx.fillText(lane.stage, nameX, nameY);
      laneLabel(lane.stage, nameY);
      ctx.font = f.small;
      const says = UNSEEN_SAYS[lane.stage] ?? "unseen";
      const y = mid + 7 * (input.typeScale ?? 1);
      ctx.fillText(says, nameX, y);
      const w = textMeasure(ctx)(says);
      input.geometry?.labels.push({
        kind: "unseen",
        text: `${lane.stage}: ${says}`,
        x: nameX,
        y: y - 5.5 + dy,
        w,
        h: 11,
      });
      ctx.font = f.normal;
    } else {
      ctx.fillText(lane.stage, nameX, mid);
      laneLabel(lane.stage, mid);
    }
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
  input: DrawInput,
  lastTs: number,
): void {
  const { axis, width, selectedPass, theme } = input;
  const f = fonts(input.typeScale ?? 1);
  const header = g.lanesY - g.y;
  const bands = passBands(passes, g, axis.x, width, lastTs);
  ctx.font = f.bold;
  // Pass labels share the header row with the key's name: start after it.
  const nameEnd = 8 + textMeasure(ctx)(groupTitle(ctx, g.key, width));
  const headerInView = g.y >= input.scrollY;
  const shown: PassBand[] = [];
  const pieces: BandPiece[] = [];
  for (const b of bands) {
    const x0 = Math.max(b.x0, GUTTER);
    const x1 = Math.min(b.x1, width);
    if (x1 <= x0) continue;
    input.geometry?.passes.push({
      key: b.pass.key,
      index: b.pass.index,
      number: b.pass.number,
      cause: b.pass.cause,
      x0,
      x1,
      headerInView,
    });
    const sel =
      selectedPass !== undefined &&
      selectedPass.key === b.pass.key &&
      selectedPass.index === b.pass.index;
    shown.push(b);
    pieces.push({
      x0,
      x1,
      color: b.style.color,
      hatch: b.style.hatch,
      own: sel || startsNewLife(b.pass),
    });
  }
  // Bands of one style whose solid left edges overlap are painted as one (see bandRuns.ts).
  for (const run of bandRuns(pieces)) {
    if (run.to - run.from === 1) {
      drawBand(ctx, g, shown[run.from], pieces[run.from], input);
      continue;
    }
    const first = shown[run.from];
    ctx.fillStyle = first.style.color;
    ctx.fillRect(run.x0, first.y, run.edgeEnd - run.x0, first.height);
    ctx.fillRect(run.x0, g.y + header - 4, run.chipEnd - run.x0, 4);
    for (let i = run.from; i < run.to; i++) {
      const b = shown[i];
      const x1 = pieces[i].x1;
      if (x1 > run.edgeEnd) bandFill(ctx, b, run.edgeEnd, x1);
    }
  }
  ctx.font = f.small;
  ctx.textBaseline = "middle";
  const measure = textMeasure(ctx);
  const lh = Math.max(10, header - 8);
  for (const { band: b, x, text } of placePassLabels(bands, measure, GUTTER, nameEnd, width)) {
    const w = measure(text);
    ctx.fillStyle = theme.panel;
    ctx.fillRect(x - 2, g.y + 2, w + 4, lh);
    ctx.fillStyle = b.pass.cause === "self" ? theme.selfText : theme.text;
    ctx.fillText(text, x, g.y + header / 2 - 1);
    input.geometry?.labels.push({
      kind: "pass",
      text,
      x,
      y: g.y + 2 + axisHeight(input) - input.scrollY,
      w,
      h: lh,
      pass: { key: b.pass.key, index: b.pass.index },
    });
  }
}

/** A band's translucent fill and, for a self-triggered pass, its hatch, from x0 to x1. */
function bandFill(ctx: CanvasRenderingContext2D, b: PassBand, x0: number, x1: number): void {
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
}

/** One band on its own (clipped to x0..x1): fill, hatch, a new Foo's line, edge, chip, outline. */
function drawBand(
  ctx: CanvasRenderingContext2D,
  g: GroupBox,
  b: PassBand,
  { x0, x1, own }: BandPiece,
  input: DrawInput,
): void {
  const { session, axis, theme } = input;
  const header = g.lanesY - g.y;
  bandFill(ctx, b, x0, x1);
  if (own && startsNewLife(b.pass)) {
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
  ctx.fillRect(x0, b.y, edgeEnd({ x0, x1 }) - x0, b.height);
  // The cause chip sits in the header row above its band.
  ctx.fillRect(x0, g.y + header - 4, x1 - x0, 4);
  const sel = input.selectedPass;
  if (own && sel && sel.key === b.pass.key && sel.index === b.pass.index) {
    ctx.strokeStyle = theme.selection;
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 + 1, b.y + 1, x1 - x0 - 2, b.height - 2);
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
  const painted: PaintedMark[][] = [[], [], [], [], []];
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
    painted[s].push({ x, row, style: markStyle(store, row) });
  }
  for (let s = 0; s < 5; s++) {
    const y = g.lanes[s].y + g.lanes[s].height / 2;
    const runs = markRuns(painted[s]);
    for (const run of runs) drawRun(ctx, run, y, r);
    if (input.geometry) {
      input.geometry.marks += painted[s].length;
      input.geometry.markShapes += runs.length;
    }
  }
  const scale = input.typeScale ?? 1;
  ctx.font = fonts(scale).small;
  ctx.textBaseline = "middle";
  ctx.fillStyle = theme.text;
  // A label does not cross a break mark: drawn over it, the mark would cut the text.
  const breakMids: number[] = [];
  for (const b of axis.breaks()) {
    const mid = breakMid(b, width);
    if (mid !== undefined) breakMids.push(mid);
  }
  const overBreak = (x0: number, x1: number) =>
    breakMids.some((m) => x0 < m + BREAK_HALF && x1 > m - BREAK_HALF);
  for (let s = 0; s < 5; s++) {
    const marks = painted[s];
    if (marks.length > width / 4) continue; // too dense for any label
    marks.sort((a, b) => a.x - b.x);
    const y = g.lanes[s].y + g.lanes[s].height / 2;
    let labelEnd = -Infinity;
    for (let i = 0; i < marks.length; i++) {
      const { x, style } = marks[i];
      if (x - r < labelEnd + 2) continue;
      const label = style.label;
      if (!label) continue;
      const w = textMeasure(ctx)(label);
      const next = i + 1 < marks.length ? marks[i + 1].x : Infinity;
      if (x + r + 4 + w > next - r - 2 || x + r + 4 + w > width) continue;
      if (overBreak(x + r + 4, x + r + 4 + w)) continue;
      ctx.fillText(label, x + r + 4, y);
      labelEnd = x + r + 4 + w;
      const h = 12 * scale;
      const y0 = y - h / 2 + axisHeight(input) - input.scrollY;
      input.geometry?.labels.push({ kind: "mark", text: label, x: x + r + 4, y: y0, w, h });
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
