/**
 * Where things go on the timeline, as pure functions of the data and the scale (no canvas here),
 * so the renderer only paints and the layout is testable.
 *
 * One group per selected Foo: a header row with the key, then the five stage lanes in pipeline
 * order (watch, enqueue, dequeue, read, write). A pass is a band across its group's five lanes from
 * its dequeue to its end.
 */
import { STAGES, type Pass, type Stage } from "@loopscope/trace";
import { causeStyle, type CauseStyle } from "../ui/palette.ts";
import { passSpan } from "./fold.ts";

export const LANE_HEIGHT = 26;
export const GROUP_HEADER = 24;
export const GROUP_GAP = 10;

export interface LaneBox {
  key: string;
  stage: Stage;
  y: number;
  height: number;
}

export interface GroupBox {
  key: string;
  /** Top of the header row. */
  y: number;
  /** Top of the first lane. */
  lanesY: number;
  height: number;
  lanes: LaneBox[];
}

/**
 * Stacks one group of five lanes per key, top to bottom, in the order given; `header` is the
 * height of each group's header row (the key and its pass labels).
 */
export function layoutLanes(
  keys: readonly string[],
  laneHeight = LANE_HEIGHT,
  header = GROUP_HEADER,
): GroupBox[] {
  const groups: GroupBox[] = [];
  let y = 0;
  for (const key of keys) {
    const lanesY = y + header;
    const lanes = STAGES.map((stage, i) => ({
      key,
      stage,
      y: lanesY + i * laneHeight,
      height: laneHeight,
    }));
    const height = header + STAGES.length * laneHeight;
    groups.push({ key, y, lanesY, height, lanes });
    y += height + GROUP_GAP;
  }
  return groups;
}

export function totalHeight(groups: readonly GroupBox[]): number {
  const last = groups[groups.length - 1];
  return last ? last.y + last.height : 0;
}

export interface PassBand {
  pass: Pass;
  x0: number;
  x1: number;
  y: number;
  height: number;
  /** true while the pass has no end yet (drawn to the playhead / last event). */
  open: boolean;
  style: CauseStyle;
  /** What the band says: cause, and how many enqueues merged into it. */
  label: string;
}

/**
 * Shortest band drawn, so a pass stays visible and clickable in linear time (in folded time each
 * gets MIN_PASS_PX, an instantaneous one too: see passSpan).
 */
export const MIN_BAND_PX = 3;

/**
 * Bands for one group's passes that intersect [0, width]. `x` maps µs to pixels; `openEnd` is
 * the time an open pass is drawn up to.
 */
export function passBands(
  passes: readonly Pass[],
  group: GroupBox,
  x: (us: number) => number,
  width: number,
  openEnd: number,
): PassBand[] {
  const out: PassBand[] = [];
  for (const pass of passes) {
    const open = pass.end === undefined;
    const [start, end] = passSpan(pass.start, open ? Math.max(openEnd, pass.start) : pass.end!);
    const x0 = x(start);
    let x1 = x(end);
    if (x1 - x0 < MIN_BAND_PX) x1 = x0 + MIN_BAND_PX;
    if (x1 < 0 || x0 > width) continue;
    out.push({
      pass,
      x0,
      x1,
      y: group.lanesY,
      height: group.y + group.height - group.lanesY,
      open,
      style: causeStyle(pass.cause, pass.inferred),
      label: passLabel(pass),
    });
  }
  return out;
}

/**
 * "#2 self-triggered · 3 adds → 1 dequeue" — the merge is spelled out when enqueues merged. Passes
 * are numbered within their Foo's life, as the excerpt numbers them; the first pass of a Foo
 * created again under the same name says so.
 */
export function passLabel(pass: Pass): string {
  const adds = pass.triggers.length;
  const merged = adds > 1 ? ` · ${adds} adds → 1 dequeue` : "";
  return `${causePassLabel(pass)}${merged}`;
}

/** "#2 external": the label without its merge, for a column too narrow for the whole. */
export function causePassLabel(pass: Pass): string {
  const s = causeStyle(pass.cause, pass.inferred);
  const life = startsNewLife(pass) ? "new Foo · " : "";
  return `${life}#${pass.number} ${s.label}`;
}

/** Whether `pass` is the first of a Foo created again under its key (see Pass.number). */
export function startsNewLife(pass: Pass): boolean {
  return pass.number === 1 && pass.index > 0;
}

/** A pass label placed in its group's header row: its band, the text and its left edge. */
export interface PlacedLabel {
  band: PassBand;
  text: string;
  x: number;
}

const LABEL_GAP = 6;

/**
 * The label's short form, for a band too narrow for the whole: "#2 self" for a self-triggered
 * pass (the one a workshop looks for), the number alone for the rest (the band's colour and the
 * legend say the cause).
 */
export function shortPassLabel(pass: Pass): string {
  const self = pass.cause === "self" ? " self" : "";
  return `${startsNewLife(pass) ? "new · " : ""}#${pass.number}${self}`;
}

/**
 * Which pass labels the header row has room for, and where: each at its band's left edge (never
 * left of `from`, the lanes' start; just after the key's name, which ends at `nameEnd`, when the
 * band starts under it and goes on past it; a short one that would run past the right edge ends
 * there), none running into another or the key's name. Every band gets its short form ("#2 self", "#3") first, by importance — a new Foo's
 * first pass (where a life began), then self-triggered passes (what the tool exists to show), then
 * the rest; the less important give way. Then each, in the same order, says its long form where
 * that runs into no label placed: a long label no longer costs its neighbours theirs (a row of
 * passes MIN_PASS_PX apart had every other one labelled).
 */
export function placePassLabels(
  bands: readonly PassBand[],
  measure: (label: string) => number,
  from: number,
  nameEnd: number,
  width: number,
): PlacedLabel[] {
  const at = (b: PassBand) => {
    const x = Math.max(b.x0, from) + 4;
    const afterName = nameEnd + LABEL_GAP;
    return x < afterName && afterName + 8 <= b.x1 ? afterName : x;
  };
  // A band at the right edge (the newest pass, following live) has its label end at the edge.
  const place = (b: PassBand, w: number) => {
    const x = at(b);
    return x + w < width ? x : Math.max(nameEnd + LABEL_GAP, width - 1 - w);
  };
  const placed: (PlacedLabel & { end: number })[] = [];
  const fits = (x: number, w: number, self?: PlacedLabel) =>
    x + w < width &&
    x >= nameEnd + LABEL_GAP &&
    placed.every((p) => p === self || x + w + LABEL_GAP <= p.x || x >= p.end + LABEL_GAP);
  const rank = (b: PassBand) => (startsNewLife(b.pass) ? 0 : b.pass.cause === "self" ? 1 : 2);
  const order = [...bands].sort((a, b) => rank(a) - rank(b) || a.x0 - b.x0);
  for (const band of order) {
    const text = shortPassLabel(band.pass);
    const w = measure(text);
    const x = place(band, w);
    if (fits(x, w)) placed.push({ band, text, x, end: x + w });
  }
  for (const p of placed) {
    const w = measure(p.band.label);
    if (p.band.label !== p.text && fits(p.x, w, p)) {
      p.text = p.band.label;
      p.end = p.x + w;
    }
  }
  return placed.map(({ band, text, x }) => ({ band, text, x })).sort((a, b) => a.x - b.x);
}
