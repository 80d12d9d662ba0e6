/**
 * One run of the simulated Deployment controller over one Deployment generation: its timers, all
 * cancelled together when a newer generation or a deletion replaces it, and its writes — each a
 * read of the Deployment as stored, a change to it and to the rollout plan, and a write through
 * /status (never a generation bump; one MODIFIED watch event, none if nothing changed), after
 * which the plan's listeners (the ReplicaSet simulator) are told.
 */
import { ApiError } from "../errors.ts";
import { clone, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import type { DeploymentStatus } from "./deployment-status.ts";
import { pruneIdle, type DeploymentPlan, type RolloutPlans } from "./rollout-plan.ts";

export interface RolloutTimings {
  readyDelayMs: number;
  stepDelayMs: number;
}

export class RolloutRun {
  readonly generation: number;
  readonly plan: DeploymentPlan;
  readonly timings: RolloutTimings;
  readonly #registry: Registry;
  readonly #plans: RolloutPlans;
  readonly #target: KObject["metadata"];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #onFinish: () => void;

  constructor(
    registry: Registry,
    plans: RolloutPlans,
    deployment: KObject,
    plan: DeploymentPlan,
    timings: RolloutTimings,
    onFinish: () => void,
  ) {
    this.#registry = registry;
    this.#plans = plans;
    this.#target = deployment.metadata;
    this.generation = deployment.metadata.generation ?? 1;
    this.plan = plan;
    this.timings = timings;
    this.#onFinish = onFinish;
  }

  /** Runs `fn` in `ms`, unless the run is cancelled first. */
  after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    this.#timers.add(t);
  }

  cancel(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  /** The run's writes are done: the controller forgets it (pending timers still run). */
  finish(): void {
    this.#onFinish();
  }

  /** The Deployment as stored, if it is still this one and not being deleted. */
  read(): KObject | undefined {
    const { namespace, name = "", uid } = this.#target;
    const d = this.#registry.store.get(deploymentResource, namespace, name);
    return d && d.metadata.uid === uid && !d.metadata.deletionTimestamp ? d : undefined;
  }

  /**
   * Reads the Deployment, lets `fn` change it (its status, its annotations) and the plan, drops
   * idle ReplicaSets beyond its revisionHistoryLimit from the plan, writes it through /status.
   */
  write(fn: (d: KObject, s: DeploymentStatus, desired: number) => void): void {
    const current = this.read();
    if (!current) return;
    const next = clone(current);
    const status = (next.status ?? {}) as DeploymentStatus;
    next.status = status;
    const spec = (next.spec ?? {}) as { replicas?: number; revisionHistoryLimit?: number };
    fn(next, status, spec.replicas ?? 1);
    pruneIdle(this.plan, spec.revisionHistoryLimit ?? 10);
    delete next.metadata.resourceVersion;
    const { namespace = "default", name = "", uid = "" } = this.#target;
    try {
      this.#registry.update(deploymentResource, namespace, name, next, { subresource: "status" });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    this.#plans.written({ uid, namespace, name });
  }
}
