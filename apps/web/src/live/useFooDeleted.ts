/**
 * Whether the trace saw the Foo of `key` deleted and not created since (KeySummary.deleted): what
 * the proxy's dashboard knows of it, having no objects snapshot of the cluster to ask. Its
 * component re-renders only when that changes.
 */
import { useCallback, useSyncExternalStore } from "react";
import type { TraceSession } from "../store/session.ts";
import { followSession } from "../app/followSession.ts";

export function useFooDeleted(session: TraceSession, key: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => followSession(session, onChange, { throttleMs: 250 }),
    [session],
  );
  return useSyncExternalStore(subscribe, () => session.summaryOf(key)?.deleted === true);
}
