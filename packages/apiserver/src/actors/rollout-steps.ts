/**
 * The timed status writes of a rollout with no old pods to keep available — a Deployment's
 * first, a new template while no old pod is ready, a scale — as the real controller's show up in
 * a watch (sample-controller.md §2.2). The Foo controller's traces depend on their number and
 * order (a creation is ADDED + these 4 MODIFIED: deployment-controller.test.ts), so they stay so:
 *
 *   1. revision annotation (+ Progressing=True NewReplicaSetCreated for a new template, whose
 *      ReplicaSet is made with all its pods, not ready)                          (at once)
 *   2. observedGeneration, unavailableReplicas, Available=False                   (+1 step)
 *   3. replicas = updatedReplicas = desired (a scale's pods made or gone now),
 *      Progressing ReplicaSetUpdated                                              (+2 steps)
 *   4. ready = available = desired, Available=True, NewReplicaSetAvailable        (readyDelayMs
 *                                                                                  after the change)
 *
 * "At once" is one step after the Deployment changed: the run starts then.
 */
import { REVISION_ANNOTATION } from "./pod-template-hash.ts";
import { setAvailability, setCondition } from "./deployment-status.ts";
import {
  allReady,
  currentSet,
  dropUnready,
  makeCurrent,
  otherSets,
  scaleSet,
  type SetPlan,
} from "./rollout-plan.ts";
import type { RolloutRun } from "./rollout-run.ts";
import { maxUnavailable } from "./rollout-strategy.ts";

export interface Template {
  hash: string;
  name: string;
  template: unknown;
}

/** Runs the steps; `target` is the new template, none for a change that keeps it. */
export function rolloutSteps(run: RolloutRun, target: Template | undefined): void {
  const { plan, generation } = run;
  const { stepDelayMs: step, readyDelayMs: readyDelay } = run.timings;
  const fromChange = Math.max(readyDelay, 3 * step + 1);
  const readyAt = Date.now() - step + fromChange;
  const current = () => currentSet(plan) as SetPlan;
  const unavailable = (spec: unknown, desired: number) => maxUnavailable(spec, desired);

  run.write((d, s, desired) => {
    for (const set of otherSets(plan, target?.hash ?? plan.current)) dropUnready(set);
    if (target) {
      makeCurrent(plan, target);
      scaleSet(current(), desired, readyAt);
    }
    plan.desired = desired;
    d.metadata.annotations = {
      ...d.metadata.annotations,
      [REVISION_ANNOTATION]: String(current().revision),
    };
    if (target)
      setCondition(
        s,
        "Progressing",
        "True",
        "NewReplicaSetCreated",
        `Created new replica set "${target.name}"`,
      );
  });
  run.after(step, () =>
    run.write((d, s, desired) => {
      s.observedGeneration = generation;
      if (target) {
        s.replicas ??= 0;
        s.updatedReplicas = 0;
      }
      setAvailability(s, desired, unavailable(d.spec, desired));
    }),
  );
  run.after(2 * step, () =>
    run.write((d, s, desired) => {
      if (!target) scaleSet(current(), desired, readyAt);
      s.replicas = desired;
      s.updatedReplicas = desired;
      // Scaling down: surplus pods go away at once, they were ready already.
      if ((s.readyReplicas ?? 0) > desired) s.readyReplicas = desired;
      if ((s.availableReplicas ?? 0) > desired) s.availableReplicas = desired;
      setCondition(
        s,
        "Progressing",
        "True",
        "ReplicaSetUpdated",
        `ReplicaSet "${current().name}" is progressing.`,
      );
      setAvailability(s, desired, unavailable(d.spec, desired));
    }),
  );
  run.after(fromChange - step, () =>
    run.write((d, s, desired) => {
      allReady(current());
      s.observedGeneration = generation;
      s.replicas = desired;
      s.updatedReplicas = desired;
      s.readyReplicas = desired;
      s.availableReplicas = desired;
      setAvailability(s, desired, unavailable(d.spec, desired));
      setCondition(
        s,
        "Progressing",
        "True",
        "NewReplicaSetAvailable",
        `ReplicaSet "${current().name}" has successfully progressed.`,
      );
      if (desired === 0) {
        delete s.readyReplicas;
        delete s.availableReplicas;
      }
      run.finish();
    }),
  );
}
