/**
 * Everything `loopscope up` runs, started in order and stopped in reverse: recording → hub →
 * session (cluster + controller, feeding the hub and the workqueue metrics) → the probe of
 * whether a kubeconfig's cluster still answers; on either cluster, whether it serves the Foo API
 * → dashboard server (with GET /metrics for this run's Prometheus registry) → the embedded
 * cluster's kubeconfig file, named by the dashboard's port.
 * In-process callers (tests, benches) use this directly.
 *
 * Invariant: `stop()` leaves the recording complete on disk — the controller has stopped
 * emitting before the hub's recording is flushed, fsynced and closed. It is idempotent.
 */
import { dirname } from "node:path";
import { mkdir, rm } from "node:fs/promises";
import { Recording } from "../hub/recording.ts";
import { TraceHub } from "../hub/trace-hub.ts";
import type { RecordingMeta } from "../hub/codec.ts";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import {
  startSession,
  type ClusterSpec,
  type Session,
  type SessionOptions,
} from "../session/session.ts";
import {
  ClusterReachabilityMonitor,
  type ReachabilityListener,
} from "../session/cluster-reachability.ts";
import { shownServer } from "../session/shown-server.ts";
import { FooApiMonitor, type FooApiListener } from "../session/foo-api-presence.ts";
import { InformerHealthMonitor, type InformerHealthListener } from "../session/informer-health.ts";
import { liveBackend } from "../dashboard/live-backend.ts";
import { scenarioRunner } from "../dashboard/scenario-runner.ts";
import { startDashboardServer, type DashboardServer } from "../dashboard/dashboard-server.ts";
import type { RouteModule } from "../http/mounted-routes.ts";
import { createMetrics } from "../metrics/index.ts";
import { lockRecording } from "../hub/recording-lock.ts";
import { writeKubeconfigFile, type KubeconfigFile } from "./kubeconfig-file.ts";

export interface LiveOptions {
  cluster: ClusterSpec;
  host: string;
  port: number;
  webRoot: string;
  runsDir: string;
  /** Recording path; default a fresh timestamped file in runsDir. */
  record?: string;
  workers: number;
  resyncMs: number;
  share?: boolean;
  /** klog STAGE lines (the -v flag). */
  klog?: (line: string) => void;
  extraRoutes?: RouteModule[];
  /** A kubeconfig's cluster stopped or started answering (`up` says so on stderr). */
  onReachability?: ReachabilityListener;
  /** The cluster stopped or started serving the Foo API (`up` says so on stderr). */
  onFooApi?: FooApiListener;
  /** The controller's informers started or stopped failing, or failed anew (`up` says so on stderr). */
  onInformers?: InformerHealthListener;
  /** A kubeconfig's cluster is being checked (see SessionOptions.onChecking). */
  onChecking?: (server: string, context: string) => void;
  /** Another controller reconciles the same Foos (`up` warns on stderr). */
  onOtherController?: SessionOptions["onOtherController"];
}

export interface Live {
  server: DashboardServer;
  session: Session;
  hub: TraceHub;
  /** On a kubeconfig's cluster: whether it answers. The embedded one lives in this process. */
  reachability?: ClusterReachabilityMonitor;
  /** Whether the cluster serves the Foo API (its CRD can be deleted under the controller). */
  fooApi: FooApiMonitor;
  /** Whether the controller's informers list and watch (the cluster can refuse them mid-run). */
  informers: InformerHealthMonitor;
  recordingPath: string;
  /** For kubectl: the embedded server's kubeconfig, or the one given. */
  kubeconfigPath: string;
  stop(): Promise<void>;
}

export async function startLive(o: LiveOptions): Promise<Live> {
  const runs = new RunsFolder(o.runsDir);
  const recordingPath = o.record ?? (await runs.newRecordingPath());
  await mkdir(dirname(recordingPath), { recursive: true });
  const meta: RecordingMeta = {
    source: "live",
    created: new Date().toISOString(),
    cluster: o.cluster.kind,
  };
  // --record FILE continues FILE (a restart after a crash or a stop); a new run gets a new file.
  // Continued by one run at a time: its lock goes when the hub closes (see RecordingInUseError).
  const unlock = o.record ? await lockRecording(recordingPath) : async () => {};
  const hub = o.record
    ? await Recording.openAppend(recordingPath, meta).then(
        ({ recording, lastSeq }) => new TraceHub({ recording, afterSeq: lastSeq }),
        async (err: unknown) => {
          await unlock();
          throw err;
        },
      )
    : new TraceHub({ recording: await Recording.create(recordingPath, meta) });
  const metrics = createMetrics();
  hub.subscribe(metrics.reconciles.observe);
  const cleanup: (() => Promise<void>)[] = [unlock, () => hub.close()];
  const unwind = async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
  };
  try {
    let reachability: ClusterReachabilityMonitor | undefined;
    const fooApi = new FooApiMonitor();
    if (o.onFooApi) fooApi.onChange(o.onFooApi);
    const informers = new InformerHealthMonitor();
    if (o.onInformers) informers.onChange(o.onInformers);
    const session = await startSession({
      cluster: o.cluster,
      workers: o.workers,
      resyncMs: o.resyncMs,
      onEvent: (e) => hub.push(e).seq,
      metrics: metrics.workqueue,
      klog: o.klog,
      verbosity: o.klog ? 2 : 0,
      // A failed list or watch is the first sign of an outage: ask the cluster at once. A 404
      // from the Foo informer's is the Foo API gone (its CRD deleted); any other answer that
      // refuses them (401, 403, 500 …), kept up, is the informers failing.
      onInformerError: (e) => {
        reachability?.suspect();
        fooApi.informerFailed(e);
        informers.informerFailed(e);
      },
      onInformerRecovered: (e) => {
        fooApi.informerRecovered(e);
        informers.informerRecovered(e);
      },
      onChecking: o.onChecking,
      onOtherController: o.onOtherController,
    });
    cleanup.push(() => session.stop());
    if (!session.apiserver) {
      // A kubeconfig's cluster can go away under the controller; the embedded one lives and
      // dies with this process.
      const monitor = new ClusterReachabilityMonitor({
        kubeConfig: session.kubeConfig,
        server: shownServer(session.kubeConfig.getCurrentCluster()?.server) ?? session.clusterName,
      });
      if (o.onReachability) monitor.onChange(o.onReachability);
      // Back after an outage: the informers' watches and the calls in flight were open across it,
      // and may be dead.
      monitor.onChange((now) => {
        if (now.reachable) session.controller.clusterAnswersAgain();
      });
      monitor.start();
      reachability = monitor;
      cleanup.push(() => monitor.stop());
    }
    const backend = liveBackend({
      hub,
      session,
      runs,
      meta,
      workers: o.workers,
      resyncMs: o.resyncMs,
      scenarios: scenarioRunner(session, hub, {
        reachability,
        fooApi,
        ...(o.cluster.kind === "kubeconfig" && { kubeconfig: o.cluster.path }),
      }),
      reachability,
      fooApi,
      informers,
    });
    const server = await startDashboardServer({
      backend,
      host: o.host,
      port: o.port,
      webRoot: o.webRoot,
      share: o.share,
      extraRoutes: [() => [metrics.route()], ...(o.extraRoutes ?? [])],
    });
    cleanup.push(() => server.close());
    // Once the port is ours: its name is the file's (kubeconfig-file.ts), and a second `up` on a
    // port in use must not overwrite the first one's.
    let kubeconfig: KubeconfigFile | undefined;
    if (session.apiserver) {
      kubeconfig = await writeKubeconfigFile(session.apiserver.kubeconfigYaml(), server.port);
      cleanup.push(() => kubeconfig!.remove());
    }
    let stopping: Promise<void> | undefined;
    return {
      server,
      session,
      hub,
      reachability,
      fooApi,
      informers,
      recordingPath,
      kubeconfigPath: kubeconfig?.path ?? (o.cluster.kind === "kubeconfig" ? o.cluster.path : ""),
      stop: () => (stopping ??= unwind()),
    };
  } catch (err) {
    await unwind();
    // Nothing ran: leave no header-only file in the runs list (never a device: --record
    // /dev/full must not remove /dev/full).
    if (hub.lastSeq === 0 && hub.recording?.regularFile) await rm(recordingPath, { force: true });
    throw err;
  }
}
