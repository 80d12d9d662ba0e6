/**
 * A simulated kube-controller-manager Deployment controller. For each new generation of a
 * Deployment it decides, one step delay later, what the real one's syncs would do, keeps the
 * outcome in the rollout plan (actors/rollout-plan.ts: each ReplicaSet's pods, and when they are
 * ready) and writes the Deployment's status from it in timed steps:
 *
 * - no ready old pod to keep available — a Deployment's first rollout, a scale — the four steps
 *   of actors/rollout-steps.ts, whose watch events the Foo controller's traces are made of;
 * - a new template replacing ready pods: rounds within the strategy's bounds
 *   (actors/rollout-rounds.ts: RollingUpdate's maxSurge / maxUnavailable, or Recreate);
 * - a paused Deployment: observed, scaled, no template rolled out (actors/paused-rollout.ts);
 *   resumed, Progressing=Unknown DeploymentResumed first, then as above a step later;
 * - a new Deployment over the ReplicaSets its namesake left orphaned adopts every one its
 *   selector matches, with its pods (actors/orphan-adoption.ts): rounds from there, which
 *   usually have nothing left to do.
 *
 * Writes go through the registry's /status path, so they never bump generation. A newer
 * generation cancels the pending steps of the older one and starts from the plan as it is.
 */
import { clone, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import type { StoreChange } from "../store/object-store.ts";
import { conditionOf, setCondition, type DeploymentStatus } from "./deployment-status.ts";
import { orphansOf } from "./orphan-adoption.ts";
import { PAUSED_REASON, syncPaused } from "./paused-rollout.ts";
import { replicaSetOf } from "./pod-template-hash.ts";
import { otherSets, type RolloutPlans } from "./rollout-plan.ts";
import { rolloutRounds } from "./rollout-rounds.ts";
import { RolloutRun, type RolloutTimings } from "./rollout-run.ts";
import { rolloutSteps } from "./rollout-steps.ts";

export type DeploymentControllerOptions = RolloutTimings;

export class DeploymentControllerSim {
  readonly #registry: Registry;
  readonly #plans: RolloutPlans;
  readonly #opts: DeploymentControllerOptions;
  readonly #runs = new Map<string, RolloutRun>();
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry, plans: RolloutPlans, opts: DeploymentControllerOptions) {
    this.#registry = registry;
    this.#plans = plans;
    this.#opts = opts;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const r of this.#runs.values()) r.cancel();
    this.#runs.clear();
  }

  #onChange(c: StoreChange): void {
    if (c.resource !== deploymentResource) return;
    const uid = c.object.metadata.uid ?? "";
    if (c.type === "DELETED" || c.object.metadata.deletionTimestamp) {
      this.#cancel(uid);
      if (c.type === "DELETED") this.#plans.delete(uid);
      return;
    }
    const generation = c.object.metadata.generation ?? 1;
    const observed = (c.object.status as { observedGeneration?: number } | undefined)
      ?.observedGeneration;
    if (generation <= (observed ?? 0) || this.#runs.get(uid)?.generation === generation) return;
    this.#cancel(uid);
    const run: RolloutRun = new RolloutRun(
      this.#registry,
      this.#plans,
      c.object,
      this.#plans.ensure(uid),
      this.#opts,
      () => {
        if (this.#runs.get(uid) === run) this.#runs.delete(uid);
      },
    );
    this.#runs.set(uid, run);
    run.after(this.#opts.stepDelayMs, () => this.#begin(run));
  }

  #cancel(uid: string): void {
    this.#runs.get(uid)?.cancel();
    this.#runs.delete(uid);
  }

  /**
   * Paused: observed and scaled only. Resumed: said so (checkPausedConditions), then rolled
   * out a step later.
   */
  #begin(run: RolloutRun): void {
    const d = run.read();
    if (!d) return;
    if (run.plan.sets.size === 0) {
      // A Deployment's first sync: the ReplicaSets its selector matches that no one controls
      // (left orphaned by a namesake) are its own.
      for (const orphan of orphansOf(this.#registry, d, Date.now() + this.#opts.readyDelayMs))
        run.plan.sets.set(orphan.hash, orphan);
    }
    if ((d.spec as { paused?: boolean }).paused) return syncPaused(run, replicaSetOf(d).hash);
    const status = d.status as DeploymentStatus | undefined;
    if (conditionOf(status, "Progressing")?.reason !== PAUSED_REASON) return this.#rollOut(run, d);
    run.write((_d, s) =>
      setCondition(s, "Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed"),
    );
    run.after(this.#opts.stepDelayMs, () => {
      const resumed = run.read();
      if (resumed) this.#rollOut(run, resumed);
    });
  }

  /**
   * The four steps when no old pod is ready to be replaced and the template's ReplicaSet has no
   * pods of its own, else rounds that keep the strategy's bounds.
   */
  #rollOut(run: RolloutRun, d: KObject): void {
    const { plan } = run;
    const { hash, name } = replicaSetOf(d);
    const target = { hash, name, template: clone((d.spec as { template?: unknown }).template) };
    const switching = plan.current !== hash;
    const oldReady = otherSets(plan, hash).reduce((n, s) => n + s.ready, 0);
    const ownPods = plan.sets.get(hash)?.replicas ?? 0;
    if (oldReady === 0 && (!switching || ownPods === 0))
      rolloutSteps(run, switching ? target : undefined);
    else rolloutRounds(run, target);
  }
}
