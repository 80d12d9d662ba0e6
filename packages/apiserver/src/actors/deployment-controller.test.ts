/**
 * The simulated Deployment controller writes status in the order of a real rollout
 * (sample-controller.md §2.2), visible to a watcher as ADDED + 4 MODIFIED events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../index.ts";
import {
  DEPLOYMENTS,
  RawClient,
  deploymentBody,
  type KObj,
  type WatchLine,
} from "../testing/raw-client.ts";
import { conditionOf, type DeploymentStatus } from "./deployment-status.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ deploymentReadyDelayMs: 60, deploymentStepDelayMs: 5 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const statusOf = (e: WatchLine) => (e.object.status ?? {}) as DeploymentStatus;

describe("simulated Deployment controller", () => {
  it("progresses a new 1-replica Deployment like the real controller", async () => {
    const list = await c.get<{ metadata: { resourceVersion: string } }>(DEPLOYMENTS);
    const w = await c.watch(
      `${DEPLOYMENTS}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    await c.post(DEPLOYMENTS, deploymentBody("rollout"));
    const events = await w.until((e) => e.some((x) => statusOf(x).availableReplicas === 1));
    w.close();
    expect(events.map((e) => e.type)).toEqual([
      "ADDED",
      "MODIFIED",
      "MODIFIED",
      "MODIFIED",
      "MODIFIED",
    ]);
    const [added, revision, observed, updated, ready] = events;
    expect(added.object.status).toEqual({});
    expect(revision.object.metadata.annotations?.["deployment.kubernetes.io/revision"]).toBe("1");
    expect(conditionOf(statusOf(revision), "Progressing")).toMatchObject({
      status: "True",
      reason: "NewReplicaSetCreated",
    });
    expect(statusOf(observed)).toMatchObject({
      observedGeneration: 1,
      replicas: 0,
      updatedReplicas: 0,
      unavailableReplicas: 1,
    });
    expect(conditionOf(statusOf(observed), "Available")).toMatchObject({
      status: "False",
      reason: "MinimumReplicasUnavailable",
    });
    expect(statusOf(updated)).toMatchObject({ replicas: 1, updatedReplicas: 1 });
    expect(conditionOf(statusOf(updated), "Progressing")).toMatchObject({
      reason: "ReplicaSetUpdated",
    });
    const final = statusOf(ready);
    expect(final).toMatchObject({
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    });
    expect(final.unavailableReplicas).toBeUndefined();
    expect(conditionOf(final, "Available")).toMatchObject({
      status: "True",
      reason: "MinimumReplicasAvailable",
    });
    expect(conditionOf(final, "Progressing")).toMatchObject({
      status: "True",
      reason: "NewReplicaSetAvailable",
    });
    // Status writes never bump generation.
    expect(events.every((e) => e.object.metadata.generation === 1)).toBe(true);
  });

  it("writes a scale's status in three steps, as the Foo controller's traces have it", async () => {
    const created = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("scaled"))).body;
    const settle = await c.watch(
      `${DEPLOYMENTS}?watch=true&fieldSelector=metadata.name%3Dscaled&resourceVersion=${created.metadata.resourceVersion}`,
    );
    const ready = await settle.until((e) => e.some((x) => statusOf(x).availableReplicas === 1));
    settle.close();
    const w = await c.watch(
      `${DEPLOYMENTS}?watch=true&fieldSelector=metadata.name%3Dscaled&resourceVersion=${ready.at(-1)!.object.metadata.resourceVersion}`,
    );
    await c.patch(`${DEPLOYMENTS}/scaled/scale`, { spec: { replicas: 3 } });
    await w.until((e) => e.some((x) => statusOf(x).availableReplicas === 3));
    await c.patch(`${DEPLOYMENTS}/scaled/scale`, { spec: { replicas: 2 } });
    await w.until((e) => e.some((x) => statusOf(x).readyReplicas === 2));
    await new Promise((r) => setTimeout(r, 200));
    w.close();
    const seen = w.events.map((e) => {
      const s = statusOf(e);
      return [
        e.type,
        e.object.metadata.generation,
        s.observedGeneration,
        s.replicas,
        s.updatedReplicas,
        s.readyReplicas,
        s.unavailableReplicas,
        conditionOf(s, "Available")?.status,
        conditionOf(s, "Progressing")?.reason,
      ];
    });
    expect(seen).toEqual([
      // The scale itself, then the three status writes of the simulated controller.
      ["MODIFIED", 2, 1, 1, 1, 1, undefined, "True", "NewReplicaSetAvailable"],
      ["MODIFIED", 2, 2, 1, 1, 1, 2, "False", "NewReplicaSetAvailable"],
      ["MODIFIED", 2, 2, 3, 3, 1, 2, "False", "ReplicaSetUpdated"],
      ["MODIFIED", 2, 2, 3, 3, 3, undefined, "True", "NewReplicaSetAvailable"],
      // Down: the surplus pod goes at once.
      ["MODIFIED", 3, 2, 3, 3, 3, undefined, "True", "NewReplicaSetAvailable"],
      ["MODIFIED", 3, 3, 3, 3, 3, undefined, "True", "NewReplicaSetAvailable"],
      ["MODIFIED", 3, 3, 2, 2, 2, undefined, "True", "ReplicaSetUpdated"],
      ["MODIFIED", 3, 3, 2, 2, 2, undefined, "True", "NewReplicaSetAvailable"],
    ]);
  });

  it("follows a scale and a new template with a new revision", async () => {
    const created = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("roll2"))).body;
    const w = await c.watch(
      `${DEPLOYMENTS}?watch=true&fieldSelector=metadata.name%3Droll2&resourceVersion=${created.metadata.resourceVersion}`,
    );
    await w.until((e) => e.some((x) => statusOf(x).availableReplicas === 1));
    await c.patch(`${DEPLOYMENTS}/roll2/scale`, { spec: { replicas: 3 } });
    await w.until((e) =>
      e.some((x) => statusOf(x).availableReplicas === 3 && statusOf(x).observedGeneration === 2),
    );
    await c.patch(
      `${DEPLOYMENTS}/roll2`,
      { spec: { template: { spec: { containers: [{ name: "nginx", image: "nginx:1.26" }] } } } },
      "application/strategic-merge-patch+json",
    );
    const events = await w.until((e) =>
      e.some((x) => statusOf(x).observedGeneration === 3 && statusOf(x).readyReplicas === 3),
    );
    w.close();
    const last = events[events.length - 1];
    expect(last.object.metadata.annotations?.["deployment.kubernetes.io/revision"]).toBe("2");
    expect(last.object.metadata.generation).toBe(3);
  });
});
