/**
 * A running loopscope session: a cluster (the embedded API server, or a kubeconfig cluster) and
 * the Foo controller connected to it over HTTP. `loopscope up` and `loopscope run` both start one.
 *
 *   const s = await startSession({ cluster: { kind: "embedded" }, onEvent: (e) => hub.push(e) });
 *   …
 *   await s.stop();
 *
 * Invariants:
 * - The controller only ever talks to the cluster through `kubeConfig` (HTTP), embedded or not.
 * - `startSession` resolves once the controller's caches have synced and its workers run; on any
 *   failure it has stopped everything it started and rejects with a one-line `ClusterError`
 *   message (unreachable or silent server, 401, RBAC refusal, missing Foo CRD — see
 *   cluster-check.ts). It never waits for ever: preflight requests and the cache sync have limits.
 * - `stop()` is idempotent: controller first (in-flight passes finish), then the API server.
 * - `onEvent` receives every stage event synchronously; if it returns the seq it assigned, enqueue
 *   events link to their watch event by that seq (`causeSeq`), else by the event's 1-based ordinal
 *   in this session's stream.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { startEmbeddedApiServer, type ApiServer, type ApiServerOptions } from "./embedded.ts";
import {
  FooController,
  type InformerError,
  type InformerRecovery,
  type KlogWriter,
  type Lessons,
  type ProbeSink,
  type WorkqueueMetricsProvider,
} from "@loopscope/controller";
import type { OtherController } from "@loopscope/trace";
import { ClusterError, checkCluster } from "./cluster-check.ts";
import { shownServer } from "./shown-server.ts";
import { loadKubeconfig } from "./kubeconfig-files.ts";

export { ClusterError } from "./cluster-check.ts";

/** How long the controller's caches may take to sync before the start fails (default). */
export const CACHE_SYNC_TIMEOUT_MS = 30_000;
export type { ApiServer, ApiServerOptions } from "./embedded.ts";

export type ClusterSpec =
  | { kind: "embedded"; apiserverOpts?: ApiServerOptions }
  | {
      kind: "kubeconfig";
      path: string;
      context?: string;
      /** Create the Foo CRD when it is missing (otherwise a missing CRD is an error). */
      installCrd?: boolean;
    };

export interface SessionOptions {
  cluster: ClusterSpec;
  /** Controller workers (default 2, as sample-controller). */
  workers?: number;
  /** Informer resync period in ms (default 30 000); 0 disables. */
  resyncMs?: number;
  lessons?: Partial<Lessons>;
  onEvent?: ProbeSink;
  /** klog text lines (STAGE lines at verbosity >= 2), e.g. to stderr for `-v=2`. */
  klog?: KlogWriter;
  verbosity?: number;
  metrics?: WorkqueueMetricsProvider;
  /** Informer failures (each is retried with backoff; also logged to klog as E lines). */
  onInformerError?: (e: InformerError) => void;
  /** Another controller reconciles the same Foos (once per controller; see FooControllerOptions). */
  onOtherController?: (o: OtherController) => void;
  /** An informer lists or watches again after failures. */
  onInformerRecovered?: (e: InformerRecovery) => void;
  /** Give up if caches have not synced by then (default 30 s). */
  cacheSyncTimeoutMs?: number;
  /** A kubeconfig cluster's preflight request unanswered this long fails the start (default 10 s). */
  answerWithinMs?: number;
  /**
   * A kubeconfig's cluster is about to be asked whether it can run the controller (which can take
   * up to `answerWithinMs`): its server as shown to users (no credentials) and its context.
   */
  onChecking?: (server: string, context: string) => void;
}

export interface Session {
  kubeConfig: KubeConfig;
  /** The embedded API server, when the session started one. */
  apiserver?: ApiServer;
  controller: FooController;
  /** "embedded" or the kubeconfig context's name. */
  clusterName: string;
  /** What starting changed in a kubeconfig's cluster, for the user to hear ("created the Foo CRD …"). */
  changedCluster: string[];
  stop(): Promise<void>;
}

export async function startSession(opts: SessionOptions): Promise<Session> {
  let apiserver: ApiServer | undefined;
  let kubeConfig = new KubeConfig();
  let clusterName: string;
  let changedCluster: string[] = [];
  if (opts.cluster.kind === "embedded") {
    apiserver = await startEmbeddedApiServer(opts.cluster.apiserverOpts ?? {});
    kubeConfig.loadFromString(apiserver.kubeconfigYaml());
    clusterName = "embedded";
  } else {
    try {
      kubeConfig = loadKubeconfig(opts.cluster.path, opts.cluster.context);
    } catch (err) {
      throw new ClusterError((err as Error).message);
    }
    const current = kubeConfig.getCurrentContext();
    clusterName = current;
    const server = shownServer(kubeConfig.getCurrentCluster()?.server);
    opts.onChecking?.(server ?? "(no server in kubeconfig)", clusterName);
    changedCluster = await checkCluster(kubeConfig, {
      installCrd: opts.cluster.installCrd,
      answerWithinMs: opts.answerWithinMs,
    });
  }

  const controller = new FooController({
    kubeConfig,
    workers: opts.workers,
    resyncMs: opts.resyncMs,
    lessons: opts.lessons,
    probe: opts.onEvent,
    klog: opts.klog,
    verbosity: opts.verbosity,
    metrics: opts.metrics,
    onInformerError: opts.onInformerError,
    onOtherController: opts.onOtherController,
    onInformerRecovered: opts.onInformerRecovered,
    cacheSyncTimeoutMs: opts.cacheSyncTimeoutMs ?? CACHE_SYNC_TIMEOUT_MS,
  });
  try {
    await controller.run();
  } catch (err) {
    await apiserver?.stop();
    throw new ClusterError(
      `controller did not start on ${clusterName}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }

  let stopping: Promise<void> | undefined;
  return {
    kubeConfig,
    apiserver,
    controller,
    clusterName,
    changedCluster,
    stop() {
      stopping ??= (async () => {
        await controller.stop();
        await apiserver?.stop();
      })();
      return stopping;
    },
  };
}
