/**
 * Folded time: a monotonic, piecewise-linear map from wall time (µs) to a "folded" coordinate u
 * (pixels at the fit), built from the events and passes of the objects shown.
 *
 * - Inside a pass, time runs linearly, and every pass gets at least MIN_PASS_PX: a pass of 40 µs
 *   and one of 130 ms are both readable. A pass known only at an instant (start = end) is taken
 *   to last INSTANT_PASS_US (passSpan), so it gets its MIN_PASS_PX too.
 * - Between passes, time runs at the same rate until a gap would be wider than FOLD_PX; then the
 *   gap is folded to exactly FOLD_PX (a break mark says how long it really was).
 * - Before the first and after the last event, time runs at a slow fixed rate, so a fit window's
 *   margins (a few % of the real span) come out about FOLD_PX wide.
 *
 * The rate k (px per µs) is the largest that fits everything into the width given. Because the
 * map is monotonic and continuous, the timeline's window, deep links and the view store stay in
 * wall time; only the axis (timeScale.ts) goes through u. Linear time is the identity fold.
 */

/** Width of a folded gap at the fit, px. */
export const FOLD_PX = 44;
/** The narrowest a pass is at the fit, px (the e2e checks ≥ 24 on screen). */
export const MIN_PASS_PX = 34;

/**
 * How long the timeline takes a pass known only at an instant to last, µs (the traces' clock
 * resolution). Its start and end are one time when nothing else of it was seen: a pass inferred
 * from the wire by `loopscope proxy` with a single write, or one an unpatched Go controller's log
 * shows only by its "Successfully synced" line. Without a span such a pass had no width for the
 * fold to stretch: it was drawn MIN_BAND_PX (3 px) wide.
 */
export const INSTANT_PASS_US = 1;

/**
 * The wall-time interval the timeline gives a pass [start, end]: the fold (its width), the bands
 * and hit testing all take it from here. At least INSTANT_PASS_US long; its events at `start`
 * sit at the band's left edge, as a pass's dequeue does.
 */
export function passSpan(start: number, end: number): [number, number] {
  return [start, Math.max(end, start + INSTANT_PASS_US)];
}

export interface Fold {
  /** Breakpoints, wall µs, strictly ascending. */
  readonly t: Float64Array;
  /** u at each breakpoint, ascending. */
  readonly u: Float64Array;
  /** u per µs before t[0] and after t[last]. */
  readonly outside: number;
  /** Indices i of the pieces [t[i], t[i+1]] that are folded gaps. */
  readonly folded: Int32Array;
  /**
   * At each breakpoint, the u before it that instant passes' nominal spans (passSpan) take: they
   * stand for no elapsed time, so the axis puts no ticks of its own there (instantU).
   */
  readonly instant: Float64Array;
}

export interface FoldInput {
  /** Event times of the objects shown (any order; duplicates allowed). */
  times: ArrayLike<number>;
  /** Pass intervals [start, end] (µs) of the objects shown (start = end: see passSpan). */
  passes: ArrayLike<readonly [number, number]>;
  /** Room for the whole extent, px. */
  width: number;
}

/** Builds the fold; undefined when there is nothing to fold (fewer than two distinct times). */
export function buildFold({ times, passes, width }: FoldInput): Fold | undefined {
  const all = new Float64Array(times.length + 2 * passes.length);
  all.set(times as ArrayLike<number>);
  const spans = Array.from(passes, ([a, b]) => passSpan(a, b));
  for (let i = 0; i < spans.length; i++) {
    all[times.length + 2 * i] = spans[i][0];
    all[times.length + 2 * i + 1] = spans[i][1];
  }
  all.sort();
  // Distinct breakpoints.
  let n = 0;
  for (let i = 0; i < all.length; i++) if (n === 0 || all[i] !== all[n - 1]) all[n++] = all[i];
  if (n < 2) return undefined;
  const t = all.slice(0, n);
  const pieces = n - 1;
  // Which pass (if any) covers each piece; with several objects, passes may overlap: the piece
  // takes the largest stretch any of its passes asks for.
  const d = new Float64Array(pieces);
  for (let i = 0; i < pieces; i++) d[i] = t[i + 1] - t[i];
  const covering: number[][] = Array.from({ length: pieces }, () => []);
  const span = new Float64Array(spans.length);
  for (let p = 0; p < spans.length; p++) {
    const [a, b] = spans[p];
    span[p] = b - a;
    if (!(b > a)) continue;
    for (let i = lowerBound(t, a); i < pieces && t[i] < b; i++) covering[i].push(p);
  }
  const covered = covering.map((c) => c.length > 0);
  const length = (i: number, k: number): number => {
    if (!covered[i]) return Math.min(k * d[i], FOLD_PX);
    let m = 1;
    for (const p of covering[i]) m = Math.max(m, MIN_PASS_PX / (k * span[p]));
    return k * d[i] * m;
  };
  const total = (k: number): number => {
    let s = 0;
    for (let i = 0; i < pieces; i++) s += length(i, k);
    return s;
  };
  // total(k) never decreases in k: bisect (in log space) for the rate that fills the width.
  let lo = 1e-12;
  let hi = 1e6;
  const room = Math.max(1, width - 2 * FOLD_PX);
  if (total(hi) <= room) lo = hi;
  else if (total(lo) >= room) hi = lo;
  for (let it = 0; it < 60 && hi / lo > 1.0001; it++) {
    const mid = Math.sqrt(lo * hi);
    if (total(mid) > room) hi = mid;
    else lo = mid;
  }
  const k = lo;
  const u = new Float64Array(n);
  const instant = new Float64Array(n);
  const folded: number[] = [];
  for (let i = 0; i < pieces; i++) {
    u[i + 1] = u[i] + length(i, k);
    if (!covered[i] && k * d[i] > FOLD_PX) folded.push(i);
    // Covered by instant passes alone: the µs a pass known only at an instant is given.
    const nominal = covered[i] && covering[i].every((p) => !(passes[p][1] > passes[p][0]));
    instant[i + 1] = instant[i] + (nominal ? u[i + 1] - u[i] : 0);
  }
  const real = t[n - 1] - t[0];
  return {
    t,
    u,
    outside: Math.min(k, FOLD_PX / (0.04 * Math.max(real, 2_000))),
    folded: Int32Array.from(folded),
    instant,
  };
}

/** Index of the first breakpoint ≥ x. */
function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Wall µs → u. */
export function foldU(f: Fold, us: number): number {
  const { t, u } = f;
  const last = t.length - 1;
  if (us <= t[0]) return u[0] - (t[0] - us) * f.outside;
  if (us >= t[last]) return u[last] + (us - t[last]) * f.outside;
  const i = lowerBound(t, us);
  if (t[i] === us) return u[i];
  return u[i - 1] + ((us - t[i - 1]) / (t[i] - t[i - 1])) * (u[i] - u[i - 1]);
}

/** The u between wall times a ≤ b that instant passes' nominal spans take (no time elapsed). */
export function instantU(f: Fold, a: number, b: number): number {
  return instantBefore(f, b) - instantBefore(f, a);
}

function instantBefore(f: Fold, us: number): number {
  const { t, instant } = f;
  const last = t.length - 1;
  if (us <= t[0]) return 0;
  if (us >= t[last]) return instant[last];
  const i = lowerBound(t, us);
  if (t[i] === us) return instant[i];
  const share = (us - t[i - 1]) / (t[i] - t[i - 1]);
  return instant[i - 1] + (instant[i] - instant[i - 1]) * share;
}

/**
 * The instant (wall µs) of the first instant pass whose nominal span overlaps [a, b], if any: the
 * one time such a stretch of the axis stands for.
 */
export function instantIn(f: Fold, a: number, b: number): number | undefined {
  const { t, instant } = f;
  for (let i = Math.max(0, lowerBound(t, a) - 1); i < t.length - 1 && t[i] < b; i++)
    if (t[i + 1] > a && instant[i + 1] > instant[i]) return t[i];
  return undefined;
}

/** u → wall µs (the inverse of foldU). */
export function foldT(f: Fold, x: number): number {
  const { t, u } = f;
  const last = t.length - 1;
  if (x <= u[0]) return t[0] - (u[0] - x) / f.outside;
  if (x >= u[last]) return t[last] + (x - u[last]) / f.outside;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (u[mid] <= x) lo = mid;
    else hi = mid;
  }
  const du = u[hi] - u[lo];
  return du > 0 ? t[lo] + ((x - u[lo]) / du) * (t[hi] - t[lo]) : t[lo];
}
