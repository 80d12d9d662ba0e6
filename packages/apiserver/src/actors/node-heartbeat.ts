/**
 * The simulated node's kubelet heartbeat: every `intervalMs` (a kubelet's 10 s) it renews the
 * node's Lease in `kube-node-lease` (spec.renewTime, a MicroTime), recreating it if a client
 * deleted it; every STATUS_EVERY renewals (a kubelet's 5 min nodeStatusReportFrequency) it
 * reports the node's status, which moves each condition's lastHeartbeatTime. So `kubectl
 * describe node` shows a RenewTime at most 10 s and a LastHeartbeatTime at most 5 min old, as
 * on a cluster, whenever the server was started.
 *
 * Each write bumps the one global resourceVersion, as a real kubelet's do; watchers of other
 * kinds see no event from it.
 */
import { clone, rfc3339, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { NODE_LEASE_NAMESPACE, leaseResource, nodeLease } from "../resources/lease.ts";
import { NODE_NAME, nodeResource } from "../resources/node.ts";

/** Node status reports per lease renewals: 5 min / 10 s. */
export const STATUS_EVERY = 30;

type Obj = Record<string, unknown>;

export class NodeHeartbeat {
  readonly #registry: Registry;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #renewals = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(registry: Registry, intervalMs: number, now: () => number = Date.now) {
    this.#registry = registry;
    this.#intervalMs = Math.max(1, intervalMs);
    this.#now = now;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.#beat(), this.#intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #beat(): void {
    const now = this.#now();
    this.#renewLease(now);
    if (++this.#renewals % STATUS_EVERY === 0) this.#reportStatus(now);
  }

  /** As the kubelet's lease controller: holder, duration and renewTime, whatever a client set. */
  #renewLease(now: number): void {
    const renewTime = new Date(now).toISOString();
    const fresh = nodeLease(renewTime);
    const lease = this.#registry.store.get(leaseResource, NODE_LEASE_NAMESPACE, NODE_NAME);
    if (!lease) {
      this.#registry.create(leaseResource, NODE_LEASE_NAMESPACE, fresh);
      return;
    }
    const next = clone(lease);
    next.spec = { ...(next.spec as Obj | undefined), ...(fresh.spec as Obj) };
    this.#registry.update(leaseResource, NODE_LEASE_NAMESPACE, NODE_NAME, next);
  }

  #reportStatus(now: number): void {
    const node = this.#registry.store.get(nodeResource, undefined, NODE_NAME);
    if (!node) return;
    const next: KObject = clone(node);
    const status = (next.status ?? {}) as Obj;
    const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
    for (const c of conditions) c.lastHeartbeatTime = rfc3339(now);
    this.#registry.update(nodeResource, undefined, NODE_NAME, next);
  }
}
