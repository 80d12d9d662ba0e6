/**
 * A rollout that replaces ready old pods, in rounds as the real controller's syncs go
 * (rolloutRolling, rolloutRecreate): one scaling step per sync, a step delay apart, each written
 * as the Deployment's status; new pods become ready a ready delay after they are made, and that
 * is written too, followed by the next sync. RollingUpdate scales the new ReplicaSet up within
 * maxSurge, then the old ones down as far as minAvailable allows, and again as new pods become
 * ready; Recreate scales the old ones to 0 first, then makes the new one with all its pods.
 *
 * Writes: the first observes the generation (a new template's revision, Progressing=True
 * NewReplicaSetCreated — FoundNewReplicaSet for an adopted one — and, RollingUpdate, its first
 * pods); each later one is progress (Progressing=True ReplicaSetUpdated); the last,
 * NewReplicaSetAvailable once every pod is new and ready and no old one is left.
 */
import {
  setCondition,
  setCounts,
  setProgress,
  type DeploymentStatus,
} from "./deployment-status.ts";
import { REVISION_ANNOTATION } from "./pod-template-hash.ts";
import {
  currentSet,
  dropUnready,
  makeCurrent,
  markReady,
  otherSets,
  scaleSet,
  type SetPlan,
} from "./rollout-plan.ts";
import type { RolloutRun } from "./rollout-run.ts";
import type { Template } from "./rollout-steps.ts";
import {
  fenceposts,
  isRecreate,
  maxUnavailable,
  recreateStep,
  rollingStep,
  type RolloutStep,
} from "./rollout-strategy.ts";
import type { KObject } from "../object.ts";

/** Runs the rounds toward `target` (the Deployment's template; the current one for a scale). */
export function rolloutRounds(run: RolloutRun, target: Template): void {
  const { plan } = run;
  const { stepDelayMs: step } = run.timings;
  let syncing = false;
  const readyTimes = new Set<number>();

  const status = (d: KObject, s: DeploymentStatus, desired: number) =>
    setCounts(s, plan, target.hash, desired, maxUnavailable(d.spec, desired));
  const syncSoon = () => {
    if (syncing) return;
    syncing = true;
    run.after(step, sync);
  };
  /** A write when each batch of new pods is due to be ready, then a sync. */
  const whenReady = () => {
    for (const set of plan.sets.values())
      for (const { readyAt } of set.pending) {
        if (readyTimes.has(readyAt)) continue;
        readyTimes.add(readyAt);
        run.after(Math.max(0, readyAt - Date.now()), () => {
          run.write((d, s, desired) => {
            // As of the time it was set for: a timer may fire before Date.now() gets there.
            if (!markReady(plan, Math.max(Date.now(), readyAt))) return;
            setProgress(s, target.name);
            status(d, s, desired);
          });
          syncSoon();
        });
      }
  };
  /** The template's ReplicaSet made current: its revision, and the condition that says so. */
  const switchTo = (d: KObject, s: DeploymentStatus) => {
    const made = makeCurrent(plan, target);
    d.metadata.annotations = {
      ...d.metadata.annotations,
      [REVISION_ANNOTATION]: String((currentSet(plan) as SetPlan).revision),
    };
    if (made)
      setCondition(
        s,
        "Progressing",
        "True",
        "NewReplicaSetCreated",
        `Created new replica set "${target.name}"`,
      );
    else if (!s.conditions?.some((c) => c.type === "Progressing"))
      setCondition(
        s,
        "Progressing",
        "True",
        "FoundNewReplicaSet",
        `Found new replica set "${target.name}"`,
      );
  };
  const apply = (step: RolloutStep) => {
    if (step.kind !== "scale") return;
    const set = plan.sets.get(step.hash) as SetPlan;
    scaleSet(set, step.to, Date.now() + run.timings.readyDelayMs);
  };
  const next = (d: KObject, desired: number): RolloutStep =>
    isRecreate(d.spec)
      ? recreateStep(plan, desired, target.hash)
      : rollingStep(plan, desired, fenceposts(d.spec, desired));

  function sync(): void {
    syncing = false;
    const d = run.read();
    if (!d) return;
    const desired = (d.spec as { replicas?: number }).replicas ?? 1;
    const step = next(d, desired);
    if (step.kind === "wait") return; // a batch's ready time syncs again
    run.write((cur, s) => {
      if (step.kind === "complete") {
        setCondition(
          s,
          "Progressing",
          "True",
          "NewReplicaSetAvailable",
          `ReplicaSet "${target.name}" has successfully progressed.`,
        );
      } else if (step.kind === "switch") {
        switchTo(cur, s);
        scaleSet(currentSet(plan) as SetPlan, desired, Date.now() + run.timings.readyDelayMs);
      } else {
        apply(step);
        setProgress(s, target.name);
      }
      status(cur, s, desired);
    });
    if (step.kind === "complete") return run.finish();
    whenReady();
    syncSoon();
  }

  run.write((d, s, desired) => {
    s.observedGeneration = run.generation;
    plan.desired = desired;
    for (const set of otherSets(plan, target.hash)) dropUnready(set);
    if (plan.current !== target.hash && !isRecreate(d.spec)) {
      switchTo(d, s);
      const first = next(d, desired);
      if (first.kind === "scale" && first.hash === target.hash) apply(first);
    }
    status(d, s, desired);
  });
  whenReady();
  syncSoon();
}
