/**
 * A Deployment's strategy, and the one scaling step the real controller's next sync would take
 * toward a rollout's end — pure functions of the plan, as pkg/controller/deployment's
 * rolling.go and recreate.go compute them (deploymentutil's NewRSNewReplicas, MaxUnavailable,
 * ResolveFenceposts): so the simulated rollout keeps the bounds a cluster keeps — never more pods
 * than desired + maxSurge, never fewer available than desired − maxUnavailable.
 */
import { isPlainObject } from "../object.ts";
import { currentSet, otherSets, totals, type DeploymentPlan } from "./rollout-plan.ts";

export interface Fenceposts {
  maxSurge: number;
  maxUnavailable: number;
}

/** What the next sync does: scale one ReplicaSet, make the new one current (Recreate), or not. */
export type RolloutStep =
  | { kind: "scale"; hash: string; to: number }
  | { kind: "switch" }
  | { kind: "wait" }
  | { kind: "complete" };

type Obj = Record<string, unknown>;

export function isRecreate(spec: unknown): boolean {
  const strategy = isPlainObject(spec) && isPlainObject(spec.strategy) ? spec.strategy : {};
  return strategy.type === "Recreate";
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as it is, "N%" of `total` rounded up or down.
 * A value the real server would refuse counts as the default 25 %.
 */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  const m = typeof value === "string" ? /^(\d+)%$/.exec(value) : null;
  const percent = m ? Number(m[1]) : 25;
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** deploymentutil.ResolveFenceposts: surge rounded up, unavailable down; both 0 → 1 unavailable. */
export function fenceposts(spec: unknown, desired: number): Fenceposts {
  const s = (isPlainObject(spec) ? spec : {}) as Obj;
  const strategy = (isPlainObject(s.strategy) ? s.strategy : {}) as Obj;
  const ru = (isPlainObject(strategy.rollingUpdate) ? strategy.rollingUpdate : {}) as Obj;
  const maxSurge = scaledValue(ru.maxSurge ?? "25%", desired, true);
  const maxUnavailable = scaledValue(ru.maxUnavailable ?? "25%", desired, false);
  return maxSurge === 0 && maxUnavailable === 0
    ? { maxSurge, maxUnavailable: 1 }
    : { maxSurge, maxUnavailable };
}

/** deploymentutil.MaxUnavailable, what Available=True allows: 0 for Recreate, at most desired. */
export function maxUnavailable(spec: unknown, desired: number): number {
  if (isRecreate(spec) || desired === 0) return 0;
  return Math.min(desired, fenceposts(spec, desired).maxUnavailable);
}

/**
 * rolloutRolling's next step: a new ReplicaSet with more pods than desired scaled down (a scale);
 * scaled up within maxSurge (NewRSNewReplicas); else the oldest old one with pods scaled down as
 * far as minAvailable allows (reconcileOldReplicaSets); else wait for new pods to be ready, or done.
 */
export function rollingStep(plan: DeploymentPlan, desired: number, fp: Fenceposts): RolloutStep {
  const current = currentSet(plan);
  if (!current) return { kind: "wait" };
  const all = totals(plan);
  if (current.replicas > desired) return { kind: "scale", hash: current.hash, to: desired };
  const maxTotal = desired + fp.maxSurge;
  if (current.replicas < desired && all.replicas < maxTotal) {
    const up = Math.min(maxTotal - all.replicas, desired - current.replicas);
    return { kind: "scale", hash: current.hash, to: current.replicas + up };
  }
  const old = otherSets(plan, current.hash).find((s) => s.replicas > 0);
  if (old) {
    const minAvailable = desired - fp.maxUnavailable;
    const newUnavailable = current.replicas - current.ready;
    const maxScaledDown = all.replicas - minAvailable - newUnavailable;
    if (maxScaledDown <= 0 || all.ready <= minAvailable) return { kind: "wait" };
    const down = Math.min(old.replicas, all.ready - minAvailable);
    return { kind: "scale", hash: old.hash, to: old.replicas - down };
  }
  return current.ready < desired ? { kind: "wait" } : { kind: "complete" };
}

/**
 * rolloutRecreate's next step: every old ReplicaSet to 0 first (oldest first), then the new one
 * made current with all its pods, then wait for them to be ready.
 */
export function recreateStep(plan: DeploymentPlan, desired: number, target: string): RolloutStep {
  const old = otherSets(plan, target).find((s) => s.replicas > 0);
  if (old) return { kind: "scale", hash: old.hash, to: 0 };
  if (plan.current !== target) return { kind: "switch" };
  const current = currentSet(plan);
  if (!current) return { kind: "switch" };
  if (current.replicas !== desired) return { kind: "scale", hash: current.hash, to: desired };
  return current.ready < desired ? { kind: "wait" } : { kind: "complete" };
}
