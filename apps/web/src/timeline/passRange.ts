/**
 * Which of a Foo's passes can be in view, found by binary search instead of a look at each: a hot
 * loop has thousands of passes and a window shows a few (or, zoomed out, a pixel's worth each).
 *
 * Passes come in the order of their start (their dequeue). They need not end in that order (an
 * open pass, a trace whose pass ends went missing), so the left edge is found on the running
 * maximum of their ends, kept per passes array: an array that grew is measured again; a pass
 * that was open and has since ended only makes the kept maximum too large, which keeps a few
 * passes too many, never too few.
 */
import type { Pass } from "@loopscope/trace";
import { passSpan } from "./fold.ts";

interface Ends {
  length: number;
  /** Whether the starts ascend (else every pass is looked at). */
  sorted: boolean;
  /** The latest end among passes[0..i]; an open pass ends at Infinity. */
  maxEnd: Float64Array;
}

const endsCache = new WeakMap<readonly Pass[], Ends>();

function endsOf(passes: readonly Pass[]): Ends {
  let e = endsCache.get(passes);
  if (e && e.length === passes.length) return e;
  const maxEnd = new Float64Array(passes.length);
  let sorted = true;
  let max = -Infinity;
  for (let i = 0; i < passes.length; i++) {
    const p = passes[i];
    if (i > 0 && p.start < passes[i - 1].start) sorted = false;
    const end = p.end === undefined ? Infinity : passSpan(p.start, p.end)[1];
    if (end > max) max = end;
    maxEnd[i] = max;
  }
  e = { length: passes.length, sorted, maxEnd };
  endsCache.set(passes, e);
  return e;
}

/**
 * [from, to): the passes that start by `t1` and end at or after `t0` are among passes[from..to)
 * (those outside are not: ended before t0, or started after t1). µs, wall time.
 */
export function passRange(passes: readonly Pass[], t0: number, t1: number): [number, number] {
  const { sorted, maxEnd } = endsOf(passes);
  if (!sorted) return [0, passes.length];
  // First pass whose start is after t1.
  let lo = 0;
  let hi = passes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (passes[mid].start <= t1) lo = mid + 1;
    else hi = mid;
  }
  const to = lo;
  // First pass by which some pass has ended at or after t0: none before it reaches t0.
  lo = 0;
  hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (maxEnd[mid] < t0) lo = mid + 1;
    else hi = mid;
  }
  return [lo, to];
}
