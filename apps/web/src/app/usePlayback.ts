/**
 * Advances the playhead while playing: speed × wall time, one update per animation frame. The
 * window slides to keep the playhead in view. Stops at the end of the trace.
 */
import { useEffect } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { useViewPick } from "./hooks.ts";

export function usePlayback(session: TraceSession, view: ViewStore): void {
  const playing = useViewPick(view, (s) => s.playing);
  useEffect(() => {
    if (!playing) return;
    let last = performance.now();
    let id = requestAnimationFrame(function tick(now) {
      const s = view.get();
      const ext = session.store.timeExtent();
      if (!ext || s.playhead === undefined) return view.set({ playing: false });
      const next = s.playhead + (now - last) * 1000 * s.speed;
      last = now;
      if (next >= ext[1]) return view.set({ playhead: ext[1], playing: false });
      let window = s.window;
      if (window && next > window[1]) {
        const span = window[1] - window[0];
        window = [next - span * 0.1, next + span * 0.9];
      }
      view.set({ playhead: next, window });
      id = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(id);
  }, [playing, session, view]);
}
