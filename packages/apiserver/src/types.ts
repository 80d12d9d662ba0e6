/**
 * Public shapes of the embedded API server. Other packages (apps/server, controller tests) code
 * against these; keep them stable.
 */

/** The verbs a fault can target; the same names as packages/protocol's FaultState. */
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete";

export const VERBS: readonly Verb[] = [
  "get",
  "list",
  "watch",
  "create",
  "update",
  "patch",
  "delete",
];

export interface ApiServerOptions {
  /** 0 (default) picks an ephemeral port. */
  port?: number;
  /** Defaults to 127.0.0.1: the server is for this machine only. */
  host?: string;
  /** Time from a Deployment rollout's start until its pods are ready (default 1500 ms). */
  deploymentReadyDelayMs?: number;
  /** Delay between the simulated Deployment controller's earlier status steps (default 100 ms). */
  deploymentStepDelayMs?: number;
  /** Makes uids and generated names reproducible. */
  seed?: number;
  /**
   * How many changes of each resource type a watch can resume from before it gets 410 Expired
   * (default 1000): per type, as kube-apiserver's watch cache.
   */
  historyWindow?: number;
  /**
   * How long a list, get or initial-events watch "not older than" a resourceVersion the server
   * has not reached waits for it before the 504 "Too large resource version" (default 3000 ms,
   * kube-apiserver's watch cache's).
   */
  tooLargeResourceVersionWaitMs?: number;
  /** Interval of BOOKMARK events on watches that allow them (default 5000 ms). */
  bookmarkIntervalMs?: number;
  /**
   * Delay before the garbage collector removes orphaned dependents, and before the CRD finalizer
   * deletes a deleted CRD's custom resources (default 20 ms).
   */
  garbageCollectionDelayMs?: number;
  /** How long an Event lives after its last write, as kube-apiserver's --event-ttl (default 1 h). */
  eventTtlMs?: number;
  /**
   * How often the simulated kubelet renews the node's Lease (default 10000 ms, a kubelet's);
   * it reports the node's status every 30 renewals (5 min by default).
   */
  nodeHeartbeatMs?: number;
}

/** Compatible with packages/protocol `FaultState`. */
export interface FaultState {
  latencyMs: Partial<Record<Verb, number>>;
  failNext: number;
  competingWriter: boolean;
  /** The competing writer's last refused update since it started (it goes on writing). */
  competingWriterRefused?: string;
}

export interface CompetingWriterTarget {
  kind: "Foo" | "Deployment";
  namespace: string;
  name: string;
  intervalMs: number;
}

export interface Faults {
  /** Delays every request of `verb` by `ms` (0 removes the delay). */
  setLatency(verb: Verb, ms: number): void;
  /** Ends every open watch stream cleanly (clients re-watch from their last resourceVersion). */
  closeAllWatches(): void;
  /**
   * Every open watch stream stays open and silent for good (no event, bookmark or end): a
   * connection dead without a word behind a proxy. Watches opened after are served as usual.
   */
  silenceAllWatches(): void;
  /** The next watch request gets a 410 Expired ERROR event and is closed (clients re-list). */
  expireNextWatch(): void;
  /** The next `n` resource requests (of `verbs`, default all) fail with `status` (default 500). */
  failNext(n: number, status?: number, verbs?: Verb[]): void;
  /** Bumps an object's annotation every intervalMs, so a controller's stale write gets 409. */
  competingWriter: {
    start(target: CompetingWriterTarget): void;
    stop(): void;
  };
  state(): FaultState;
}

export interface ApiServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** A kubeconfig that kubectl and @kubernetes/client-node 1.4 accept for this server. */
  kubeconfigYaml(): string;
  writeKubeconfig(path: string): Promise<void>;
  faults: Faults;
  /** Number of open watch streams (a disconnecting client must bring it back down). */
  activeWatches(): number;
  /** Number of watch streams started so far (each re-watch is one more). */
  watchesStarted(): number;
  /** Closes every connection and stops the simulated actors. */
  stop(): Promise<void>;
  /** Drops every connection and listens again on the same port; objects and history are kept. */
  restart(): Promise<void>;
}
