/**
 * The dashboard's backend under `loopscope proxy`: the hub the proxy's tracer feeds. The controller
 * is the user's own, so there are no scenarios or lessons; the dashboard's cluster actions (create,
 * scale, delete a Foo; the embedded server's faults) go straight to the cluster, not through the
 * proxy — they are someone else's changes, as a user's kubectl is. The proxy keeps no informer:
 * no objects snapshot.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { ApiServer } from "@loopscope/apiserver";
import type { ServerInfo } from "@loopscope/protocol";
import { clusterActions } from "../actions/cluster-actions.ts";
import { applyFault } from "../actions/faults.ts";
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
  /** The cluster, reached directly. */
  kubeConfig: KubeConfig;
  /** The embedded API server, when it is the cluster (its faults can be set). */
  apiserver?: ApiServer;
  /** A kubeconfig's cluster: whether it answers (absent for the embedded one). */
  reachability?: DashboardBackend["reachability"];
}

export function proxyBackend(o: ProxyBackendOptions): DashboardBackend {
  const trace = o.hub.recording ? o.runs.nameOf(o.hub.recording.path) : undefined;
  const apiserver = o.apiserver;
  const act = clusterActions({
    kubeConfig: o.kubeConfig,
    server: o.cluster.server ?? "(no server in kubeconfig)",
    reachability: o.reachability,
    setFault: apiserver ? (f) => applyFault(apiserver.faults, f) : undefined,
  });
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
      faults: apiserver?.faults.state(),
    }),
    reachability: o.reachability,
    act,
    traceMeta: () => o.meta,
  };
}
