/**
 * A backend over a bare hub, for exercising the transport (stream, security, downloads) with
 * events the test pushes itself. Actions are recorded rather than sent to a cluster.
 */
import type { ActionRequest, ObjectsSnapshot } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import type { DashboardBackend } from "./backend.ts";

export interface HubBackend extends DashboardBackend {
  acted: ActionRequest[];
  setObjects(snapshot: ObjectsSnapshot): void;
}

export function hubBackend(hub: TraceHub, runsDir: string): HubBackend {
  let objects: ObjectsSnapshot = { atSeq: 0, objects: [] };
  const listeners = new Set<() => void>();
  const acted: ActionRequest[] = [];
  return {
    mode: "live",
    hub,
    runs: new RunsFolder(runsDir),
    acted,
    info: () => ({
      mode: "live",
      version: "test",
      cluster: { kind: "none" },
      scenarios: [],
      lessons: { hotLoopBug: false, idempotentStatus: true },
    }),
    objects: {
      snapshot: () => objects,
      onChanged(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    setObjects(s) {
      objects = s;
      for (const l of listeners) l();
    },
    async act(request) {
      acted.push(request);
      return `did ${request.action}`;
    },
    traceMeta: () => ({ source: "test", created: new Date(0).toISOString() }),
  };
}
