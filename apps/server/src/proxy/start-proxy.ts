/**
 * Everything `loopscope proxy` runs, started in order and stopped in reverse: the upstream (the
 * embedded API server, or a kubeconfig's cluster) → recording → hub → the tracing proxy feeding
 * it → the controller's kubeconfig file (a fresh 0700 folder) → a kubeconfig's cluster's probe →
 * the dashboard.
 * In-process callers (tests) use this directly.
 *
 * Invariant: `stop()` leaves the recording complete on disk — the proxy has stopped and its
 * tracer let out every pass it held before the recording is closed. It is idempotent.
 */
import { dirname } from "node:path";
import { mkdir, rm } from "node:fs/promises";
import { KubeConfig } from "@kubernetes/client-node";
import type { ApiServer } from "@loopscope/apiserver";
import { Recording } from "../hub/recording.ts";
import { TraceHub } from "../hub/trace-hub.ts";
import type { RecordingMeta } from "../hub/codec.ts";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { startDashboardServer, type DashboardServer } from "../dashboard/dashboard-server.ts";
import { shownServer } from "../session/shown-server.ts";
import { loadKubeconfig } from "../session/kubeconfig-files.ts";
import {
  ClusterReachabilityMonitor,
  type ReachabilityListener,
} from "../session/cluster-reachability.ts";
import { writeKubeconfigFile, type KubeconfigFile } from "../up/kubeconfig-file.ts";
import { proxyBackend } from "./proxy-backend.ts";
import { lockRecording } from "../hub/recording-lock.ts";
import { startTracingProxy, type TracingProxy } from "./tracing-proxy.ts";

export type ProxyUpstream =
  { kind: "embedded" } | { kind: "kubeconfig"; path: string; context?: string };

export interface ProxyRunOptions {
  upstream: ProxyUpstream;
  /** The proxy's port (0 = any free). */
  port: number;
  /** The dashboard's. */
  dashboardPort: number;
  webRoot: string;
  runsDir: string;
  record?: string;
  /** `--for`: "group/Kind" of the primary objects; none = learn them. */
  primaries: string[];
  onPrimary?(groupKind: string): void;
  /** A kubeconfig's cluster stopped answering, or answers again (ClusterReachabilityMonitor). */
  onReachability?: ReachabilityListener;
}

export interface ProxyRun {
  proxy: TracingProxy;
  dashboard: DashboardServer;
  hub: TraceHub;
  recordingPath: string;
  /** For the controller under test: the proxy. */
  controllerKubeconfig: string;
  /** For kubectl, straight to the cluster: the embedded server's (or the one given, maybe a list). */
  kubectlKubeconfig: string;
  /** The upstream cluster's kubeconfig, the context it fronts made current. */
  upstreamConfig: KubeConfig;
  /** The upstream API server as shown to users (no credentials). */
  server: string;
  stop(): Promise<void>;
}

export async function startProxyRun(o: ProxyRunOptions): Promise<ProxyRun> {
  const cleanup: (() => Promise<void>)[] = [];
  const unwind = async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
  };
  let recordingPath = "";
  let hub: TraceHub | undefined;
  try {
    let upstream = new KubeConfig();
    let apiserver: ApiServer | undefined;
    let kubectlKubeconfig: string;
    if (o.upstream.kind === "embedded") {
      const { startApiServer } = await import("@loopscope/apiserver");
      apiserver = await startApiServer({ port: 0 });
      cleanup.push(() => apiserver!.stop());
      upstream.loadFromString(apiserver.kubeconfigYaml());
      const file = await writeKubeconfigFile(apiserver.kubeconfigYaml());
      cleanup.push(() => file.remove());
      kubectlKubeconfig = file.path;
    } else {
      upstream = loadKubeconfig(o.upstream.path, o.upstream.context);
      kubectlKubeconfig = o.upstream.path;
    }
    const runs = new RunsFolder(o.runsDir);
    recordingPath = o.record ?? (await runs.newRecordingPath());
    await mkdir(dirname(recordingPath), { recursive: true });
    const meta: RecordingMeta = {
      source: "proxy",
      created: new Date().toISOString(),
      cluster: o.upstream.kind,
    };
    // Continued by one run at a time, as under `up` (see RecordingInUseError).
    if (o.record) cleanup.push(await lockRecording(recordingPath));
    const h = o.record
      ? await Recording.openAppend(recordingPath, meta).then(
          ({ recording, lastSeq }) => new TraceHub({ recording, afterSeq: lastSeq }),
        )
      : new TraceHub({ recording: await Recording.create(recordingPath, meta) });
    hub = h;
    cleanup.push(() => h.close());
    const proxy = await startTracingProxy({
      upstream,
      emit: (e) => h.push(e).seq,
      primaries: o.primaries,
      onPrimary: o.onPrimary,
      port: o.port,
    });
    cleanup.push(() => proxy.stop());
    const controllerFile: KubeconfigFile = await writeKubeconfigFile(proxy.server.kubeconfigYaml());
    cleanup.push(() => controllerFile.remove());
    const server = shownServer(upstream.getCurrentCluster()?.server) ?? "";
    // A kubeconfig's cluster can go away under the controller: the page's badge says so, as under
    // `up`. The embedded one lives and dies with this process.
    let reachability: ClusterReachabilityMonitor | undefined;
    if (!apiserver) {
      const monitor = new ClusterReachabilityMonitor({ kubeConfig: upstream, server });
      if (o.onReachability) monitor.onChange(o.onReachability);
      monitor.start();
      cleanup.push(() => monitor.stop());
      reachability = monitor;
    }
    const dashboard = await startDashboardServer({
      backend: proxyBackend({
        hub: h,
        runs,
        meta,
        kubeConfig: upstream,
        apiserver,
        reachability,
        cluster: {
          kind: o.upstream.kind,
          server,
          ...(o.upstream.kind === "kubeconfig" ? { context: upstream.getCurrentContext() } : {}),
        },
      }),
      host: "127.0.0.1",
      port: o.dashboardPort,
      portFlag: "--dashboard-port",
      webRoot: o.webRoot,
    });
    cleanup.push(() => dashboard.close());
    let stopping: Promise<void> | undefined;
    return {
      proxy,
      dashboard,
      hub: h,
      recordingPath,
      controllerKubeconfig: controllerFile.path,
      kubectlKubeconfig,
      upstreamConfig: upstream,
      server,
      stop: () => (stopping ??= unwind()),
    };
  } catch (err) {
    await unwind();
    // Nothing ran: leave no header-only file in the runs list.
    if (recordingPath && !o.record && (hub === undefined || hub.lastSeq === 0))
      await rm(recordingPath, { force: true });
    throw err;
  }
}
