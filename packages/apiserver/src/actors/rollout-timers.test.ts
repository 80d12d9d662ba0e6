/**
 * A rollout's ready timers against the clock: a timer may fire before Date.now() reaches the
 * time it was set for (the event loop's clock is not the wall clock, and both are whole
 * milliseconds), and the pods it was set for must still become ready — else the rollout waits
 * for a timer that never comes. Fake timers with the real clock make every timer early.
 */
import { afterEach, expect, it, vi } from "vitest";
import { idSource } from "../ids.ts";
import { clone, type KObject } from "../object.ts";
import { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { ObjectStore } from "../store/object-store.ts";
import { deploymentBody } from "../testing/raw-client.ts";
import { DeploymentControllerSim } from "./deployment-controller.ts";
import { ReplicaSetSimulator } from "./replica-set-simulator.ts";
import { RolloutPlans } from "./rollout-plan.ts";

afterEach(() => {
  vi.useRealTimers();
});

/** The simulated controllers over a bare registry, with fake timers and the real clock. */
function cluster() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const registry = new Registry(new ObjectStore(1000), idSource(1));
  registry.seedNamespaces();
  const plans = new RolloutPlans();
  const actors = [
    new DeploymentControllerSim(registry, plans, { readyDelayMs: 1500, stepDelayMs: 100 }),
    new ReplicaSetSimulator(registry, plans),
  ];
  actors.forEach((a) => a.start());
  registry.create(deploymentResource, "default", deploymentBody("early", 2, "nginx:1"));
  vi.advanceTimersByTime(5_000);
  const get = () => registry.store.get(deploymentResource, "default", "early") as KObject;
  return {
    /** Changes the Deployment's spec, then lets 20 s of timers run. */
    change(fn: (spec: Spec) => void) {
      const d = clone(get());
      fn(d.spec as Spec);
      registry.update(deploymentResource, "default", "early", d);
      vi.advanceTimersByTime(20_000);
      return get().status as Status;
    },
    stop: () => actors.forEach((a) => a.stop()),
  };
}

interface Spec {
  replicas: number;
  paused?: boolean;
  template: { spec: { containers: { image: string }[] } };
}

interface Status {
  replicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  conditions: { type: string; reason: string }[];
}

it("a rollout's new pods become ready when their timer fires, even before the clock says so", () => {
  const c = cluster();
  const status = c.change((spec) => (spec.template.spec.containers[0]!.image = "nginx:2"));
  c.stop();
  expect(status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  expect(status.conditions.find((x) => x.type === "Progressing")?.reason).toBe(
    "NewReplicaSetAvailable",
  );
});

it("a paused Deployment's new pods too", () => {
  const c = cluster();
  c.change((spec) => (spec.paused = true));
  const status = c.change((spec) => (spec.replicas = 3));
  c.stop();
  expect(status).toMatchObject({ replicas: 3, updatedReplicas: 3, availableReplicas: 3 });
});
