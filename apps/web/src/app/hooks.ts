/** React bindings to the session and view stores (useSyncExternalStore; views re-render on versions). */
import { useCallback, useSyncExternalStore } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewState, ViewStore } from "../store/viewState.ts";

/**
 * The session's version; the component re-renders when it moves. With `throttleMs`, at most once
 * per that interval (plus a trailing update), for views that are costly and need not follow every
 * frame of a loading file or a fast live stream (the objects table, the overview histogram).
 */
export function useSessionVersion(session: TraceSession, throttleMs = 0): number {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (throttleMs <= 0) return session.subscribe(onChange);
      let last = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const fire = () => {
        timer = undefined;
        last = performance.now();
        onChange();
      };
      const unsubscribe = session.subscribe(() => {
        if (timer !== undefined) return;
        const wait = last + throttleMs - performance.now();
        if (wait <= 0) fire();
        else timer = setTimeout(fire, wait);
      });
      return () => {
        unsubscribe();
        if (timer !== undefined) clearTimeout(timer);
      };
    },
    [session, throttleMs],
  );
  return useSyncExternalStore(subscribe, session.getVersion);
}

export function useView(view: ViewStore): ViewState {
  return useSyncExternalStore(view.subscribe, view.get);
}

/**
 * One slice of the view state: the component re-renders only when the slice changes (by ===),
 * so zooming the timeline does not re-render the objects table.
 */
export function useViewPick<T>(view: ViewStore, pick: (s: ViewState) => T): T {
  return useSyncExternalStore(view.subscribe, () => pick(view.get()));
}
