/**
 * A Deployment's status as the simulated Deployment controller writes it: its conditions, set
 * the way deploymentutil sets them, and its counts as calculateStatus derives them from the
 * ReplicaSets — here from the rollout plan (actors/rollout-plan.ts) they are made from.
 */
import { rfc3339 } from "../object.ts";
import { totals, type DeploymentPlan } from "./rollout-plan.ts";

export interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
}

export function conditionOf(s: DeploymentStatus | undefined, type: string): Condition | undefined {
  return s?.conditions?.find((c) => c.type === type);
}

/** Like deploymentutil.SetDeploymentCondition: an unchanged condition is left alone; a changed
 * one keeps its transition time if the status did not flip, and moves to the end of the list. */
export function setCondition(
  s: DeploymentStatus,
  type: string,
  status: string,
  reason: string,
  message: string,
): void {
  const existing = conditionOf(s, type);
  if (existing && existing.status === status && existing.reason === reason) return;
  replaceCondition(s, type, status, reason, message);
}

/**
 * Progressing=True ReplicaSetUpdated as syncRolloutStatus writes it when the rollout made
 * progress: updated even when its reason is unchanged (a newer lastUpdateTime, the ReplicaSet
 * now current in the message), its transition time kept while it stays True.
 */
export function setProgress(s: DeploymentStatus, replicaSet: string): void {
  replaceCondition(
    s,
    "Progressing",
    "True",
    "ReplicaSetUpdated",
    `ReplicaSet "${replicaSet}" is progressing.`,
  );
}

function replaceCondition(
  s: DeploymentStatus,
  type: string,
  status: string,
  reason: string,
  message: string,
): void {
  const now = rfc3339(Date.now());
  const conditions = s.conditions ?? [];
  const existing = conditionOf(s, type);
  const lastTransitionTime =
    existing && existing.status === status ? existing.lastTransitionTime : now;
  s.conditions = [
    ...conditions.filter((c) => c.type !== type),
    { type, status, lastUpdateTime: now, lastTransitionTime, reason, message },
  ];
}

/**
 * unavailableReplicas = `total` − available (none below 0), and Available=True once available
 * pods reach desired − maxUnavailable. `total` is what the ReplicaSets want (calculateStatus);
 * the steps of a rollout with no old pods count it as desired, as they always have.
 */
export function setAvailability(
  s: DeploymentStatus,
  desired: number,
  maxUnavailable: number,
  total = desired,
): void {
  const available = s.availableReplicas ?? 0;
  const unavailable = Math.max(0, total - available);
  if (unavailable > 0) s.unavailableReplicas = unavailable;
  else delete s.unavailableReplicas;
  if (available >= desired - maxUnavailable)
    setCondition(
      s,
      "Available",
      "True",
      "MinimumReplicasAvailable",
      "Deployment has minimum availability.",
    );
  else
    setCondition(
      s,
      "Available",
      "False",
      "MinimumReplicasUnavailable",
      "Deployment does not have minimum availability.",
    );
}

/**
 * calculateStatus over the plan: replicas = every pod, updatedReplicas = the pods of the
 * ReplicaSet of the Deployment's template (`hash`; none while a paused Deployment's new template
 * waits), ready = available = every ready pod (omitted at 0, as Go's omitempty drops them).
 */
export function setCounts(
  s: DeploymentStatus,
  plan: DeploymentPlan,
  hash: string,
  desired: number,
  maxUnavailable: number,
): void {
  const all = totals(plan);
  s.replicas = all.replicas;
  s.updatedReplicas = plan.sets.get(hash)?.replicas ?? 0;
  if (all.ready > 0) {
    s.readyReplicas = all.ready;
    s.availableReplicas = all.ready;
  } else {
    delete s.readyReplicas;
    delete s.availableReplicas;
  }
  setAvailability(s, desired, maxUnavailable, all.replicas);
}
