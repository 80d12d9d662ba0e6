/**
 * The timeline's time axis. Positions are computed in milliseconds relative to an origin (the
 * selected Foo's first event, i.e. its creation as the controller saw it), so d3's ticks land on
 * round relative times; the wall clock is origin + offset.
 */
import { scaleLinear, type ScaleLinear } from "d3";

export const GUTTER = 96;

export interface TimeAxis {
  /** ms since origin → px */
  scale: ScaleLinear<number, number>;
  /** µs since epoch */
  origin: number;
  /** µs since epoch → px */
  x: (us: number) => number;
  /** px → µs since epoch */
  invert: (px: number) => number;
}

export function makeTimeAxis(window: [number, number], origin: number, width: number): TimeAxis {
  const scale = scaleLinear()
    .domain([(window[0] - origin) / 1000, (window[1] - origin) / 1000])
    .range([GUTTER, Math.max(GUTTER + 1, width - 8)]);
  return {
    scale,
    origin,
    x: (us) => scale((us - origin) / 1000),
    invert: (px) => origin + scale.invert(px) * 1000,
  };
}

/** "+1.250 s", "+12 ms", "−3 ms" relative to the origin. */
export function formatRelative(ms: number, stepMs: number): string {
  const sign = ms < 0 ? "−" : "+";
  const a = Math.abs(ms);
  if (stepMs >= 1000 || a >= 10_000)
    return `${sign}${(a / 1000).toFixed(stepMs >= 1000 ? 0 : 1)} s`;
  if (stepMs >= 1)
    return `${sign}${a >= 1000 ? (a / 1000).toFixed(3) + " s" : a.toFixed(0) + " ms"}`;
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
