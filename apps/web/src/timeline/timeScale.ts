/**
 * The timeline's time axis: one object that maps wall time to pixels and back, used by the
 * painter, hit testing, the overview, zoom and pan alike. Linear time maps the window linearly;
 * folded time (fold.ts) goes through the fold's coordinate first, so idle gaps take a fixed width
 * and every pass a readable one — the window, deep links and the view store stay in wall time.
 *
 * Tick labels are relative to an origin (the selected Foo's first event, i.e. its creation as the
 * controller saw it), so d3's ticks land on round relative times; the wall clock is origin +
 * offset.
 */
import { tickStep, ticks as d3ticks } from "d3";
import { foldT, foldU, instantIn, instantU, type Fold } from "./fold.ts";

export const GUTTER = 96;
/** A stretch of folded time narrower than this between two breaks gets no tick of its own, px. */
const MIN_STRETCH_PX = 8;

export type TimeMode = "folded" | "linear";

/** A tick: where it is drawn and the time it stands for. */
export interface Tick {
  px: number;
  /** ms since the origin */
  ms: number;
  /** the step of the ticks around it (label precision), ms */
  stepMs: number;
}

/** A folded gap in view: where its break mark goes and how long it really was. */
export interface Break {
  x0: number;
  x1: number;
  us: number;
}

export interface TimeAxis {
  /** µs since epoch */
  origin: number;
  /** The px range the window is mapped onto. */
  range: [number, number];
  /** The fold, in folded time; undefined in linear time. */
  fold?: Fold;
  /** µs since epoch → px */
  x: (us: number) => number;
  /** px → µs since epoch */
  invert: (px: number) => number;
  /**
   * Ticks about `spacing` px apart (in folded time, within each stretch between breaks; one in a
   * stretch narrower than that).
   */
  ticks: (spacing: number) => Tick[];
  /** Folded gaps in view (none in linear time). */
  breaks: () => Break[];
}

/**
 * The axis for `window` (wall µs) over [GUTTER, width − 8]; with a fold, in folded time (a window
 * is still in wall time: its ends go through the fold).
 */
export function makeTimeAxis(
  window: [number, number],
  origin: number,
  width: number,
  fold?: Fold,
): TimeAxis {
  const r0 = GUTTER;
  const r1 = Math.max(GUTTER + 1, width - 8);
  const u = fold ? (us: number) => foldU(fold, us) : (us: number) => us;
  const t = fold ? (x: number) => foldT(fold, x) : (x: number) => x;
  const u0 = u(window[0]);
  const u1 = u(window[1]);
  const k = (r1 - r0) / (u1 - u0 || 1);
  const x = (us: number) => r0 + (u(us) - u0) * k;
  const invert = (px: number) => t(u0 + (px - r0) / k);
  /**
   * `room`: in folded time, the wall µs from this stretch to the nearest other one (across the
   * breaks beside it), which an instant pass's tick is labelled finely enough to tell apart.
   */
  const ticksIn = (
    a: number,
    b: number,
    spacing: number,
    out: Tick[],
    stretch = false,
    room = Infinity,
  ) => {
    const ma = (a - origin) / 1000;
    const mb = (b - origin) / 1000;
    // The px that stand for time gone by: an instant pass's MIN_PASS_PX are not (ticks there
    // said its µs: "+0.066923 s", and the axis's one precision made every label as long).
    const px = x(b) - x(a) - (fold ? instantU(fold, a, b) * k : 0);
    const count = Math.floor(px / spacing);
    if (count < 1) {
      // A stretch of folded time narrower than the spacing (a burst's: a break every pass or
      // two) still has a tick, at its roundest time; else a burst's axis had none at all. A
      // sliver (a lone event's few µs between two breaks) is the breaks' edge: none there.
      if (!stretch) return;
      if (px < MIN_STRETCH_PX) {
        // An instant pass's stretch (its MIN_PASS_PX and no time gone by) still says its time:
        // a tick at the instant, to a digit that tells it from the stretches beside it, not to
        // its µs ("+0.066923 s"). Without one, a trace of instant passes had no times at all.
        const at = fold && instantU(fold, a, b) * k >= MIN_STRETCH_PX && instantIn(fold, a, b);
        if (at === undefined || at === false) return;
        const ms = (at - origin) / 1000;
        const stepMs = Number.isFinite(room) ? tickStep(0, room / 1000, 2) : 1;
        out.push({ px: x(at), ms, stepMs: stepMs > 0 ? stepMs : 1 });
        return;
      }
      const n = d3ticks(ma, mb, 1).length > 0 ? 1 : 10;
      const [ms] = d3ticks(ma, mb, n);
      if (ms !== undefined)
        out.push({ px: x(origin + ms * 1000), ms, stepMs: tickStep(ma, mb, n) });
      return;
    }
    const stepMs = tickStep(ma, mb, count);
    for (const ms of d3ticks(ma, mb, count)) out.push({ px: x(origin + ms * 1000), ms, stepMs });
  };
  let breaksInView: Break[] | undefined;
  return {
    origin,
    range: [r0, r1],
    fold,
    x,
    invert,
    ticks: (spacing) => {
      const out: Tick[] = [];
      const w0 = invert(r0);
      const w1 = invert(r1);
      if (!fold) {
        ticksIn(w0, w1, spacing, out);
        return out;
      }
      // Between breaks, time runs as it did; ticks go in each stretch on their own.
      // `before`: where the stretch before this one ends (the start of the break between them).
      let from = w0;
      // The gaps that end before the window only say where the last of them began.
      const j0 = foldedFrom(fold, w0);
      let before = j0 > 0 ? fold.t[fold.folded[j0 - 1]] : -Infinity;
      for (let j = j0; j < fold.folded.length; j++) {
        const i = fold.folded[j];
        const a = fold.t[i];
        if (a <= from) {
          from = Math.max(from, fold.t[i + 1]);
          before = a;
          continue;
        }
        if (a >= w1) {
          ticksIn(from, w1, spacing, out, true, Math.min(from - before, fold.t[i + 1] - w1));
          from = w1;
          break;
        }
        ticksIn(from, a, spacing, out, true, Math.min(from - before, fold.t[i + 1] - a));
        from = fold.t[i + 1];
        before = a;
      }
      if (from < w1) ticksIn(from, w1, spacing, out, true, from - before);
      return out;
    },
    // A frame asks for the breaks several times (lanes, labels, the axis): worked out once.
    breaks: () => {
      if (!fold) return [];
      if (breaksInView) return breaksInView;
      const out: Break[] = [];
      const w1 = invert(r1 + 1);
      for (let j = foldedFrom(fold, invert(r0 - 1)); j < fold.folded.length; j++) {
        const i = fold.folded[j];
        if (fold.t[i] > w1) break;
        const x0 = x(fold.t[i]);
        const x1 = x(fold.t[i + 1]);
        if (x1 < r0 || x0 > r1) continue;
        out.push({ x0, x1, us: fold.t[i + 1] - fold.t[i] });
      }
      breaksInView = out;
      return out;
    },
  };
}

/** The first of the fold's gaps (an index into fold.folded) that ends at or after `us`. */
function foldedFrom(fold: Fold, us: number): number {
  let lo = 0;
  let hi = fold.folded.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fold.t[fold.folded[mid] + 1] < us) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * "+1.5 s", "+12 ms", "−0.250 ms", "+25.797 s": a tick's time since the origin, to its step's
 * digit, in one unit for the whole axis — seconds once any tick drawn (`farMs`, the largest
 * |ms| among them) reaches a second; "+500 ms" stood beside "+1.000 s".
 */
export function formatRelative(ms: number, stepMs: number, farMs: number): string {
  const sign = ms < 0 ? "−" : "+";
  const a = Math.abs(ms);
  if (stepMs >= 1000 || farMs >= 1000) {
    const digits = stepMs >= 1000 ? 0 : Math.max(1, Math.ceil(-Math.log10(stepMs / 1000) - 1e-9));
    return `${sign}${(a / 1000).toFixed(digits)} s`;
  }
  if (stepMs >= 1) return `${sign}${a.toFixed(0)} ms`;
  return `${sign}${a.toFixed(stepMs >= 0.1 ? 1 : 3)} ms`;
}

/** Wall clock "09:14:06.031" (UTC, as klog and our recordings store it). */
export function formatWall(us: number, withMicros = false): string {
  const d = new Date(us / 1000);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  const ss = String(d.getUTCSeconds()).padStart(2, "0");
  const frac = withMicros
    ? String(Math.floor(us % 1_000_000)).padStart(6, "0")
    : String(d.getUTCMilliseconds()).padStart(3, "0");
  return `${hh}:${mm}:${ss}.${frac}`;
}

/** A folded gap's length, as its break mark says it: "412 ms", "1.6 s", "3 min". */
export function formatGap(us: number): string {
  const ms = us / 1000;
  if (ms < 1) return `${Math.round(us)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = s / 60;
  return m < 60 ? `${Math.round(m)} min` : `${(m / 60).toFixed(1)} h`;
}
