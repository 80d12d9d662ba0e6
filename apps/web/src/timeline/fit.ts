/**
 * "Fit": the time window that shows all of the given keys' events (or the whole trace when no key
 * is given), with a little margin so the first and last marks are not on the edge.
 */
import type { TraceSession } from "../store/session.ts";

const MIN_SPAN_US = 2_000;

export function fitWindow(session: TraceSession, keys: readonly string[]): [number, number] {
  const store = session.store;
  let lo = Infinity;
  let hi = -Infinity;
  for (const k of keys) {
    const rows = store.rowsOf(k);
    for (let i = 0; i < rows.length; i++) {
      const t = store.ts.data[rows[i]];
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  if (!(hi >= lo)) {
    const ext = store.timeExtent();
    if (!ext) {
      const now = Date.now() * 1000;
      return [now - 5_000_000, now];
    }
    [lo, hi] = ext;
  }
  const span = Math.max(MIN_SPAN_US, hi - lo);
  return [lo - span * 0.04, hi + span * 0.04];
}

/**
 * The first key's creation: from its first event to the end of the pass after which it was
 * quiescent (the exercise's "from creation to reconciled"). Undefined when the key never settled
 * or has no passes yet; callers then fit the whole key.
 */
export function creationWindow(
  session: TraceSession,
  keys: readonly string[],
): [number, number] | undefined {
  const key = keys[0];
  if (!key) return undefined;
  const s = session.summaryOf(key);
  const passes = session.passesOf(key);
  const n = s?.reconcilesForCreate;
  if (!s || !n || passes.length === 0) return undefined;
  // The create's passes begin with the first after the summary's start (its Foo's latest life).
  let from = passes.findIndex((p) => p.start >= s.firstTs);
  if (from < 0) from = 0;
  const last = passes[Math.min(from + n, passes.length) - 1];
  const end = last.end ?? last.start;
  const span = Math.max(MIN_SPAN_US, end - s.firstTs);
  return [s.firstTs - span * 0.04, end + span * 0.06];
}

/**
 * First and last event times of the given keys (rows are in arrival order, so the ends are the
 * first and last rows); undefined when none of them has an event.
 */
export function keysExtent(
  session: TraceSession,
  keys: readonly string[],
): [number, number] | undefined {
  const { store } = session;
  let lo = Infinity;
  let hi = -Infinity;
  for (const k of keys) {
    const rows = store.rowsOf(k);
    if (rows.length === 0) continue;
    lo = Math.min(lo, store.ts.data[rows[0]]);
    hi = Math.max(hi, store.ts.data[rows[rows.length - 1]]);
  }
  return hi >= lo ? [lo, hi] : undefined;
}

/** What the timeline shows before the user picks a window: the creation, else everything. */
export function defaultWindow(session: TraceSession, keys: readonly string[]): [number, number] {
  return creationWindow(session, keys) ?? fitWindow(session, keys);
}

/**
 * The window to show after moving to an event at `ts`: the current one — the user's, or the
 * default the timeline shows while there is none — when `ts` is in it, else one of the same span
 * centred on `ts`. Undefined keeps a default window the default (it moves as the trace grows).
 */
export function windowShowing(
  session: TraceSession,
  keys: readonly string[],
  current: [number, number] | undefined,
  ts: number,
): [number, number] | undefined {
  const w = current ?? defaultWindow(session, keys);
  if (ts >= w[0] && ts <= w[1]) return current;
  const span = w[1] - w[0];
  return [ts - span / 2, ts + span / 2];
}

/** Passes a followed window keeps in view in folded time, the newest ones (see followFrom). */
export const FOLLOWED_PASSES = 24;

/**
 * The left edge of a followed window in folded time: `from` (the creation's window) while the
 * keys have at most `max` passes since it, else just before the start of the `max`-th newest —
 * a hot loop's thousand passes would each get a pixel.
 */
export function followFrom(
  session: TraceSession,
  keys: readonly string[],
  from: number,
  max = FOLLOWED_PASSES,
): number {
  const starts: number[] = [];
  for (const k of keys)
    for (const p of session.passesOf(k)) if (p.start >= from) starts.push(p.start);
  if (starts.length <= max) return from;
  starts.sort((a, b) => a - b);
  const first = starts[starts.length - max]!;
  const before = starts[starts.length - max - 1]!;
  return first - Math.min(first - before, 2_000) / 2;
}
