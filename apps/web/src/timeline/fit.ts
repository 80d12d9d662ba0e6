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
