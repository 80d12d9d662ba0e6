/**
 * What the simulated Deployment controller has decided for each Deployment's ReplicaSets: how
 * many pods each has, how many of them are ready, and when the others will be — the ReplicaSet
 * controller's and the kubelet's part made exact and instant. actors/deployment-controller.ts
 * changes a plan only as it writes the Deployment's status from it, in the same turn, so the two
 * never disagree; actors/replica-set-simulator.ts makes the ReplicaSet and pod objects so.
 *
 * Invariants, per ReplicaSet: `ready + Σ pending.count = replicas` (a pod is ready, or waits for
 * its ready time), and pods go newest first, unready before ready (a ReplicaSet deletes those
 * first). Per Deployment: only the current ReplicaSet has pods that are not ready, but while
 * paused — a rollout drops an old ReplicaSet's unready pods as it starts, as the real
 * controller's cleanupUnhealthyReplicas does — so a rollout counts every old pod as available.
 */

/** Pods a scale-up made that are not ready yet, and when they will be. */
export interface PendingPods {
  count: number;
  readyAt: number;
}

export interface SetPlan {
  hash: string;
  name: string;
  /** The pod template as the Deployment had it when this ReplicaSet was first planned. */
  template: unknown;
  revision: number;
  /** Its spec.replicas, and as many pods: the simulated ReplicaSet controller makes them at once. */
  replicas: number;
  /** The first `ready` pods (oldest first) are Running and ready. */
  ready: number;
  pending: PendingPods[];
}

export interface DeploymentPlan {
  /** The ReplicaSet last rolled out to (the "new" one); "" before the first rollout. */
  current: string;
  /** spec.replicas the ReplicaSets were last scaled for: a paused Deployment scales on a change. */
  desired?: number;
  /** By template hash, in the order each became current: the current one last. */
  sets: Map<string, SetPlan>;
}

export interface DeploymentRef {
  uid: string;
  namespace: string;
  name: string;
}

/** The plans of all Deployments, by uid. */
export class RolloutPlans {
  readonly #plans = new Map<string, DeploymentPlan>();
  readonly #listeners = new Set<(d: DeploymentRef) => void>();

  get(uid: string): DeploymentPlan | undefined {
    return this.#plans.get(uid);
  }

  /** The plan of `uid`, made empty if it had none. */
  ensure(uid: string): DeploymentPlan {
    let plan = this.#plans.get(uid);
    if (!plan) {
      plan = { current: "", sets: new Map() };
      this.#plans.set(uid, plan);
    }
    return plan;
  }

  delete(uid: string): void {
    this.#plans.delete(uid);
  }

  /** Calls `fn` with the Deployment of each plan written; returns the unsubscribe. */
  subscribe(fn: (d: DeploymentRef) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  /** Told by the Deployment controller after each status write. */
  written(d: DeploymentRef): void {
    for (const fn of this.#listeners) fn(d);
  }
}

export function currentSet(plan: DeploymentPlan): SetPlan | undefined {
  return plan.sets.get(plan.current);
}

/** The ReplicaSets other than the one of template `hash`, oldest first. */
export function otherSets(plan: DeploymentPlan, hash: string): SetPlan[] {
  return [...plan.sets.values()].filter((s) => s.hash !== hash);
}

export function totals(plan: DeploymentPlan): { replicas: number; ready: number } {
  let replicas = 0;
  let ready = 0;
  for (const s of plan.sets.values()) {
    replicas += s.replicas;
    ready += s.ready;
  }
  return { replicas, ready };
}

/** Scales a ReplicaSet to `to` pods; new ones are ready at `readyAt`. */
export function scaleSet(set: SetPlan, to: number, readyAt: number): void {
  if (to > set.replicas) set.pending.push({ count: to - set.replicas, readyAt });
  let surplus = Math.max(0, set.replicas - to);
  while (surplus > 0 && set.pending.length > 0) {
    const newest = set.pending[set.pending.length - 1] as PendingPods;
    const gone = Math.min(newest.count, surplus);
    newest.count -= gone;
    surplus -= gone;
    if (newest.count === 0) set.pending.pop();
  }
  set.ready -= surplus;
  set.replicas = to;
}

/**
 * Pods whose ready time is `now` or before become ready; whether any did. A ready timer passes
 * the time it was set for, not Date.now(): the event loop's clock can fire it a millisecond
 * before the wall clock gets there, and a batch left pending then would wait for ever.
 */
export function markReady(plan: DeploymentPlan, now: number): boolean {
  let any = false;
  for (const set of plan.sets.values()) {
    const due = set.pending.filter((p) => p.readyAt <= now);
    if (due.length === 0) continue;
    set.pending = set.pending.filter((p) => p.readyAt > now);
    set.ready += due.reduce((n, p) => n + p.count, 0);
    any = true;
  }
  return any;
}

/** Every pod of the ReplicaSet ready now. */
export function allReady(set: SetPlan): void {
  set.ready = set.replicas;
  set.pending = [];
}

/** A ReplicaSet's pods that are not ready are deleted (cleanupUnhealthyReplicas). */
export function dropUnready(set: SetPlan): void {
  set.replicas = set.ready;
  set.pending = [];
}

/**
 * Makes the ReplicaSet of `target` current — an old one again on a rollback, else a new one with
 * no pods — with the revision deploymentutil gives it: one past the others', or its own if higher
 * (an adopted one keeps its). Moves it last. Whether it was new.
 */
export function makeCurrent(
  plan: DeploymentPlan,
  target: { hash: string; name: string; template: unknown },
): boolean {
  const existing = plan.sets.get(target.hash);
  const set = existing ?? { ...target, revision: 0, replicas: 0, ready: 0, pending: [] };
  const others = otherSets(plan, target.hash).map((s) => s.revision);
  set.revision = Math.max(set.revision, Math.max(0, ...others) + 1);
  plan.sets.delete(target.hash);
  plan.sets.set(target.hash, set);
  plan.current = target.hash;
  return !existing;
}

/**
 * Old ReplicaSets with no pods beyond `limit` (spec.revisionHistoryLimit) go, oldest first, as
 * the real controller's cleanupDeployment removes them: a controller that changes the template
 * every pass must not grow the cluster without end.
 */
export function pruneIdle(plan: DeploymentPlan, limit: number): void {
  const idle = otherSets(plan, plan.current).filter((s) => s.replicas === 0);
  for (const s of idle.slice(0, Math.max(0, idle.length - limit))) plan.sets.delete(s.hash);
}
