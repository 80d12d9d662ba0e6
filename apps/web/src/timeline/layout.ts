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

/** Stacks one group of five lanes per key, top to bottom, in the order given. */
export function layoutLanes(keys: readonly string[], laneHeight = LANE_HEIGHT): GroupBox[] {
  const groups: GroupBox[] = [];
  let y = 0;
  for (const key of keys) {
    const lanesY = y + GROUP_HEADER;
    const lanes = STAGES.map((stage, i) => ({
      key,
      stage,
      y: lanesY + i * laneHeight,
      height: laneHeight,
    }));
    const height = GROUP_HEADER + STAGES.length * laneHeight;
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

/** Shortest band drawn, so an instantaneous pass stays visible and clickable. */
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
    const x0 = x(pass.start);
    let x1 = x(open ? Math.max(openEnd, pass.start) : pass.end!);
    if (x1 - x0 < MIN_BAND_PX) x1 = x0 + MIN_BAND_PX;
    if (x1 < 0 || x0 > width) continue;
    out.push({
      pass,
      x0,
      x1,
      y: group.lanesY,
      height: group.height - GROUP_HEADER,
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
  const s = causeStyle(pass.cause, pass.inferred);
  const adds = pass.triggers.length;
  const merged = adds > 1 ? ` · ${adds} adds → 1 dequeue` : "";
  const life = startsNewLife(pass) ? "new Foo · " : "";
  return `${life}#${pass.number} ${s.label}${merged}`;
}

/** Whether `pass` is the first of a Foo created again under its key (see Pass.number). */
export function startsNewLife(pass: Pass): boolean {
  return pass.number === 1 && pass.index > 0;
}

/** A pass label placed in its group's header row: its band and the label's left edge. */
export interface PlacedLabel {
  band: PassBand;
  x: number;
}

const LABEL_GAP = 6;

/**
 * Which pass labels the header row has room for, and where: each at its band's left edge (never
 * left of `from`, the lanes' start), left to right, none running into the previous one, the
 * key's name (which ends at `nameEnd`) or the right edge. A new Foo's first pass is placed
 * before the others, so its neighbours give way to the label that says a life began there.
 */
export function placePassLabels(
  bands: readonly PassBand[],
  measure: (label: string) => number,
  from: number,
  nameEnd: number,
  width: number,
): PlacedLabel[] {
  const at = (b: PassBand) => Math.max(b.x0, from) + 4;
  const fits = (x: number, w: number) => x > nameEnd + LABEL_GAP && x + w < width;
  const placed: PlacedLabel[] = [];
  const taken: [number, number][] = [];
  let end = nameEnd;
  for (const band of bands) {
    if (!startsNewLife(band.pass)) continue;
    const x = at(band);
    const w = measure(band.label);
    if (x > end + LABEL_GAP && fits(x, w)) {
      placed.push({ band, x });
      taken.push([x - LABEL_GAP, x + w + LABEL_GAP]);
      end = x + w;
    }
  }
  end = nameEnd;
  for (const band of bands) {
    if (startsNewLife(band.pass)) continue;
    const x = at(band);
    const w = measure(band.label);
    const clear = taken.every(([a, b]) => x + w < a || x > b);
    if (x > end + LABEL_GAP && fits(x, w) && clear) {
      placed.push({ band, x });
      end = x + w;
    }
  }
  return placed.sort((a, b) => a.x - b.x);
}
