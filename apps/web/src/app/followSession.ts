/**
 * How often a view hears of a session's changes. Each update re-renders (and lays out) a view
 * over everything loaded so far, on the main thread that a loading file needs too: while a file
 * loads, views follow at most once per LOADING_VIEW_MS (their share of a 1M-event load was a
 * second or more of that thread); the load bar follows at its own rate (`followLoading`).
 *
 * Invariants: the first change, and the first with rows, are passed on at once; a held-back change is passed on when its
 * interval ends (trailing update), never dropped; the change that ends a load is passed on at the
 * view's own rate, whatever wait the loading rate had set.
 */
import type { TraceSession } from "../store/session.ts";

export const LOADING_VIEW_MS = 1000;

export interface FollowOptions {
  /** At most one update per this many ms (0: every notification). */
  throttleMs?: number;
  /** Keep `throttleMs` while a file loads too (cheap views: the load bar, the event count). */
  followLoading?: boolean;
}

/** Subscribes `onChange` to the session at the view's rate; returns the unsubscribe. */
export function followSession(
  session: TraceSession,
  onChange: () => void,
  { throttleMs = 0, followLoading = false }: FollowOptions = {},
): () => void {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = 0;
  const fire = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    // Until the first rows are in, nothing was shown that could wait: they are passed on at once.
    last = session.store.length > 0 ? performance.now() : -Infinity;
    onChange();
  };
  const unsubscribe = session.subscribe(() => {
    const every =
      followLoading || session.progress.done ? throttleMs : Math.max(throttleMs, LOADING_VIEW_MS);
    const now = performance.now();
    const wait = last + every - now;
    if (wait <= 0) return fire();
    // A wait set while loading may be longer than this one: the sooner one counts.
    if (timer !== undefined && due <= now + wait) return;
    if (timer !== undefined) clearTimeout(timer);
    due = now + wait;
    timer = setTimeout(fire, wait);
  });
  return () => {
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}
