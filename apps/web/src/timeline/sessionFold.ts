/**
 * The fold (fold.ts) of the objects shown, built from the session's rows and passes, and kept
 * while the session's version, the keys and the width stay the same: a pan or zoom never rebuilds
 * it; the timeline and the overview, which share a width, share it.
 */
import type { TraceSession } from "../store/session.ts";
import { buildFold, type Fold } from "./fold.ts";

interface Entry {
  version: number;
  fold: Fold | undefined;
}

/** Per session, by keys and width (the timeline and the overview may differ by a pixel). */
const cache = new WeakMap<TraceSession, Map<string, Entry>>();
const KEEP = 4;

/** The fold of `keys`' events and passes for a lane area `width` px wide. */
export function sessionFold(
  session: TraceSession,
  keys: readonly string[],
  width: number,
): Fold | undefined {
  const id = `${width}\n${keys.join("\n")}`;
  let entries = cache.get(session);
  if (!entries) cache.set(session, (entries = new Map()));
  const hit = entries.get(id);
  if (hit && hit.version === session.version) return hit.fold;
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
  entries.delete(id);
  entries.set(id, { version: session.version, fold });
  if (entries.size > KEEP) entries.delete(entries.keys().next().value!);
  return fold;
}
