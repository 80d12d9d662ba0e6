/**
 * The dashboard's backend under `loopscope proxy`: the hub the proxy's tracer feeds, and nothing
 * to act with — the controller is the user's own, so there are no scenarios, lessons or cluster
 * actions (every action answers 409), and no objects table (the proxy keeps no informer).
 */
import type { ServerInfo } from "@loopscope/protocol";
import type { TraceHub } from "../hub/trace-hub.ts";
import type { RecordingMeta } from "../hub/codec.ts";
import type { RunsFolder } from "../recorded-runs/runs-folder.ts";
import type { DashboardBackend } from "../dashboard/backend.ts";
import { VERSION } from "../dashboard/version.ts";

export interface ProxyBackendOptions {
  hub: TraceHub;
  runs: RunsFolder;
  meta: RecordingMeta;
  cluster: ServerInfo["cluster"];
}

export function proxyBackend(o: ProxyBackendOptions): DashboardBackend {
  const trace = o.hub.recording ? o.runs.nameOf(o.hub.recording.path) : undefined;
  return {
    mode: "live",
    hub: o.hub,
    runs: o.runs,
    info: () => ({
      mode: "live",
      version: VERSION,
      cluster: o.cluster,
      trace,
      scenarios: [],
      lessons: { hotLoopBug: false, idempotentStatus: false },
    }),
    objects: () => ({ atSeq: o.hub.lastSeq, objects: [] }),
    onObjectsChanged: () => () => {},
    traceMeta: () => o.meta,
  };
}
