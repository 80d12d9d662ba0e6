/**
 * A paused Deployment (spec.paused, `kubectl rollout pause`), as the real controller's sync()
 * keeps one: its generation observed with Progressing=Unknown DeploymentPaused "Deployment is
 * paused" (checkPausedConditions); no new template rolled out — its ReplicaSet is not even
 * made, so no pod counts as updated — but a change of spec.replicas applied to the ReplicaSets
 * as they are, their new pods ready a ready delay later. `rollout resume` takes it from there
 * (actors/deployment-controller.ts).
 */
import {
  conditionOf,
  setCondition,
  setCounts,
  type DeploymentStatus,
} from "./deployment-status.ts";
import { currentSet, markReady, otherSets, scaleSet, type DeploymentPlan } from "./rollout-plan.ts";
import type { RolloutRun } from "./rollout-run.ts";
import { maxUnavailable } from "./rollout-strategy.ts";
import type { KObject } from "../object.ts";

export const PAUSED_REASON = "DeploymentPaused";

/** Observes a paused Deployment's generation; `hash` is its template's (maybe not rolled out). */
export function syncPaused(run: RolloutRun, hash: string): void {
  const { plan } = run;
  const status = (d: KObject, s: DeploymentStatus, desired: number) =>
    setCounts(s, plan, hash, desired, maxUnavailable(d.spec, desired));
  run.write((d, s, desired) => {
    s.observedGeneration = run.generation;
    if (conditionOf(s, "Progressing")?.reason !== PAUSED_REASON)
      setCondition(s, "Progressing", "Unknown", PAUSED_REASON, "Deployment is paused");
    if (plan.desired !== undefined && plan.desired !== desired)
      scaleActive(plan, desired - plan.desired, Date.now() + run.timings.readyDelayMs);
    plan.desired = desired;
    status(d, s, desired);
  });
  const due = new Set([...plan.sets.values()].flatMap((set) => set.pending.map((p) => p.readyAt)));
  for (const readyAt of due)
    run.after(Math.max(0, readyAt - Date.now()), () =>
      run.write((d, s, desired) => {
        // As of the time it was set for: a timer may fire before Date.now() gets there.
        if (markReady(plan, Math.max(Date.now(), readyAt))) status(d, s, desired);
      }),
    );
}

/**
 * A scale by `by` pods: the current ReplicaSet takes it (the only one with pods but mid-rollout);
 * a scale-down beyond its pods takes the rest from the old ones, newest first. The real
 * controller spreads a mid-rollout scale over all of them in proportion; this does not.
 */
function scaleActive(plan: DeploymentPlan, by: number, readyAt: number): void {
  const sets = [currentSet(plan), ...otherSets(plan, plan.current).reverse()];
  let left = by;
  for (const set of sets) {
    if (!set || left === 0) continue;
    const to = Math.max(0, set.replicas + left);
    left -= to - set.replicas;
    scaleSet(set, to, readyAt);
  }
}
