/** React bindings to the session and view stores (useSyncExternalStore; views re-render on versions). */
import { useSyncExternalStore } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewState, ViewStore } from "../store/viewState.ts";

export function useSessionVersion(session: TraceSession): number {
  return useSyncExternalStore(session.subscribe, session.getVersion);
}

export function useView(view: ViewStore): ViewState {
  return useSyncExternalStore(view.subscribe, view.get);
}
