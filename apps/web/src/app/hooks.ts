/** React bindings to the session and view stores (useSyncExternalStore; views re-render on versions). */
import { useCallback, useSyncExternalStore } from "react";
import type { TraceSession } from "../store/session.ts";
import { followSession } from "./followSession.ts";
import type { ViewState, ViewStore } from "../store/viewState.ts";

/**
 * The session's version; the component re-renders when it moves, as often as `followSession`
 * lets it (`throttleMs`, and once a second while a file loads unless `followLoading`).
 */
export function useSessionVersion(
  session: TraceSession,
  throttleMs = 0,
  followLoading = false,
): number {
  const subscribe = useCallback(
    (onChange: () => void) => followSession(session, onChange, { throttleMs, followLoading }),
    [session, throttleMs, followLoading],
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
