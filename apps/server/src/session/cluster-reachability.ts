/**
 * Whether a kubeconfig's cluster still answers, noticed within seconds and told once per change.
 *
 * The informers alone cannot say it in time: after a failure each waits out its backoff (up to
 * 30 s) before trying again, and a watch whose packets vanish (network gone, laptop off the VPN)
 * stays silent without failing. So a light probe of its own: GET /version — what `kubectl
 * version` asks, served without etcd and allowed to every user — with a short timeout, every
 * `intervalMs`, and at once when an informer reports a failure (`suspect()`). Any HTTP answer
 * means the API server is there (401, 403, 500 are other problems, which the informers' trace
 * notes tell); a connection error, no answer in time, or a gateway's 502/503/504 (a load balancer
 * with no API server behind it) means it is not.
 *
 * Invariants: at most one probe in flight; listeners hear changes only (reachable → unreachable
 * → reachable …), never the same state twice; while unreachable, `since` and `error` stay those
 * of the first probe that failed; after `stop()` no probe starts and no listener is called.
 */
import { VersionApi, type KubeConfig } from "@kubernetes/client-node";
import type { ClusterReachability } from "@loopscope/protocol";
import { failureText } from "./request-failure.ts";
import { withSignal } from "@loopscope/controller";

export interface ClusterReachabilityOptions {
  kubeConfig: KubeConfig;
  /** The API server as shown to the user, credentials stripped (see shown-server.ts). */
  server: string;
  /** Pause between the end of one probe and the start of the next (default 3 s). */
  intervalMs?: number;
  /** A probe unanswered this long has failed (default 3 s). */
  timeoutMs?: number;
}

export type ReachabilityListener = (now: ClusterReachability, before: ClusterReachability) => void;

/** What a scenario (`loopscope run`, the dashboard's) says when its cluster went away mid-run. */
export function stoppedAnswering(server: string, why: string): string {
  return `the API server at ${server} stopped answering during the scenario: ${why}`;
}

/** Why nothing is asked of a cluster known to be down (an action, a scenario). */
export function notAnswering(now: Extract<ClusterReachability, { reachable: false }>): string {
  return `the API server at ${now.server} is not answering (${now.error}); try again when it is back`;
}

/** HTTP answers that come from a proxy in front of the API server, not from the API server. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);

export class ClusterReachabilityMonitor {
  private current: ClusterReachability = { reachable: true };
  private readonly listeners = new Set<ReachabilityListener>();
  private readonly api: VersionApi;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(private readonly opts: ClusterReachabilityOptions) {
    this.api = opts.kubeConfig.makeApiClient(VersionApi);
    this.intervalMs = opts.intervalMs ?? 3000;
    this.timeoutMs = opts.timeoutMs ?? 3000;
  }

  /** Starts probing (the session has just reached the cluster: it starts out reachable). */
  start(): void {
    this.schedule();
  }

  state(): ClusterReachability {
    return this.current;
  }

  onChange(listener: ReachabilityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Something that talks to the cluster failed (an informer's list or watch): probe now rather
   * than at the next tick. Nothing to learn while a probe is out or the cluster is known down.
   */
  suspect(): void {
    if (this.stopping.signal.aborted || this.inFlight || !this.current.reachable) return;
    clearTimeout(this.timer);
    this.probe();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stopping.signal.aborted) return;
    this.timer = setTimeout(() => this.probe(), this.intervalMs);
    this.timer.unref();
  }

  private probe(): void {
    const started = new Date();
    this.inFlight = this.failure().then((error) => {
      this.inFlight = undefined;
      if (this.stopping.signal.aborted) return;
      this.settle(error, started);
      this.schedule();
    });
  }

  /** Why the API server did not answer, or undefined when it did. Never rejects. */
  private async failure(): Promise<string | undefined> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([this.stopping.signal, timeout]);
    try {
      await this.api.getCode({}, withSignal(signal));
      return undefined;
    } catch (err) {
      if (timeout.aborted) return `no answer within ${this.timeoutMs / 1000} s`;
      const e = err as { code?: unknown; message?: unknown };
      if (typeof e?.code === "number") {
        return GATEWAY_FAILURES.has(e.code) ? `HTTP ${e.code}` : undefined;
      }
      return failureText(err);
    }
  }

  private settle(error: string | undefined, started: Date): void {
    const before = this.current;
    if (error === undefined) {
      if (before.reachable) return;
      this.current = { reachable: true };
    } else {
      if (!before.reachable) return;
      this.current = {
        reachable: false,
        server: this.opts.server,
        error,
        since: started.toISOString(),
      };
    }
    for (const l of this.listeners) l(this.current, before);
  }
}
