/**
 * The fold (fold.ts) of the objects shown, built from the session's rows and passes, and kept
 * while the session's version, the keys and the width stay the same: a pan or zoom never rebuilds
 * it; the timeline and the overview, which share a width, share it.
 */
import type { TraceSession } from "../store/session.ts";
import { buildFold, type Fold } from "./fold.ts";

interface Entry {
  version: number;
  keys: string;
  width: number;
  fold: Fold | undefined;
}

const cache = new WeakMap<TraceSession, Entry>();

/** The fold of `keys`' events and passes for a lane area `width` px wide. */
export function sessionFold(
  session: TraceSession,
  keys: readonly string[],
  width: number,
): Fold | undefined {
  const id = keys.join("\n");
  const hit = cache.get(session);
  if (hit && hit.version === session.version && hit.keys === id && hit.width === width)
    return hit.fold;
  const store = session.store;
  const ts = store.ts.data;
  let count = 0;
  for (const k of keys) count += store.rowsOf(k).length;
  const times = new Float64Array(count);
  const passes: [number, number][] = [];
  let n = 0;
  for (const k of keys) {
    const rows = store.rowsOf(k);
    for (let i = 0; i < rows.length; i++) times[n++] = ts[rows[i]];
    const last = rows.length ? ts[rows[rows.length - 1]] : 0;
    // An open pass runs to the key's newest event (what the timeline draws it up to).
    for (const p of session.passesOf(k)) passes.push([p.start, p.end ?? Math.max(p.start, last)]);
  }
  const fold = buildFold({ times, passes, width });
  cache.set(session, { version: session.version, keys: id, width, fold });
  return fold;
}
