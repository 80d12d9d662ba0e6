/**
 * Keeps the URL a deep link to what is on screen. Subscribes to the view store directly (no
 * re-render) and writes at most every 250 ms: browsers throttle history.replaceState.
 */
import { useEffect } from "react";
import { encodeDeepLink } from "../store/deepLink.ts";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";

export function useDeepLinkSync(session: TraceSession, view: ViewStore): void {
  useEffect(() => {
    // A read-only page is served its token for the `share` in its address: without it a reload,
    // or the address passed to a neighbour, was an empty page (an owner's on loopback).
    const share = new URLSearchParams(globalThis.location.search).get("share");
    const kept = share === null ? "" : `share=${encodeURIComponent(share)}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const write = () => {
      timer = undefined;
      const s = view.get();
      // A dropped local file cannot be reopened from a link: a reload shows the server's trace,
      // where its Foos, window and seq mean nothing (its lanes came up empty, unexplained).
      const local = session.source.kind === "replay" && session.source.link === undefined;
      const q = local
        ? ""
        : encodeDeepLink({
            trace: session.source.link,
            foos: s.selectedKeys,
            window: s.window,
            seq: s.selectedSeq,
            pass: s.selectedPass,
            // Paused only: a playing playhead moves every frame.
            playhead: s.playing ? undefined : s.playhead,
            timeMode: s.timeMode,
            timelineView: s.timelineView,
          });
      const query = [kept, q.replace(/^\?/, "")].filter((part) => part !== "").join("&");
      const next = `${globalThis.location.pathname}${query === "" ? "" : `?${query}`}`;
      if (next !== `${globalThis.location.pathname}${globalThis.location.search}`) {
        globalThis.history.replaceState(null, "", next);
      }
    };
    const schedule = () => {
      if (timer === undefined) timer = setTimeout(write, 250);
    };
    schedule();
    const unsubscribe = view.subscribe(schedule);
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [session, view]);
}
