/**
 * A new pod template rolls out as kube-controller-manager rolls it: RollingUpdate within
 * maxSurge / maxUnavailable (25 % / 25 % unless the Deployment says otherwise), Recreate with the
 * old pods gone first. Watched through real HTTP: the pods a watcher sees at every moment, the
 * Deployment's status writes and the ScalingReplicaSet Events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../index.ts";
import {
  DEPLOYMENTS,
  RawClient,
  deploymentBody,
  eventually,
  type KObj,
  type WatchLine,
  type WatchStream,
} from "../testing/raw-client.ts";
import { conditionOf, type DeploymentStatus } from "./deployment-status.ts";

const READY_MS = 500;
const STEP_MS = 20;
const PODS = "/api/v1/namespaces/default/pods";
const EVENTS = "/api/v1/namespaces/default/events";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({
    deploymentReadyDelayMs: READY_MS,
    deploymentStepDelayMs: STEP_MS,
  });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const statusOf = (o: KObj) => (o.status ?? {}) as DeploymentStatus;
const progressing = (s: DeploymentStatus) => conditionOf(s, "Progressing");

/** Until the Deployment has rolled out generation `generation` completely. */
async function settled(name: string, generation: number): Promise<void> {
  await eventually(async () => {
    const d = (await c.get<KObj>(`${DEPLOYMENTS}/${name}`)).body;
    const s = statusOf(d);
    const want = (d.spec as { replicas: number }).replicas;
    const done =
      (s.observedGeneration ?? 0) >= generation &&
      s.replicas === want &&
      s.updatedReplicas === want &&
      (s.availableReplicas ?? 0) === want &&
      progressing(s)?.reason === "NewReplicaSetAvailable";
    return done;
  });
}

const podReady = (p: KObj) =>
  ((p.status?.conditions ?? []) as { type: string; status: string }[]).some(
    (x) => x.type === "Ready" && x.status === "True",
  );
const podSet = (p: KObj) => (p.metadata.ownerReferences as { name: string }[])[0]!.name;

/** The pods a watcher saw, replayed: the most at once, the fewest ready at once, and each pod. */
function replayPods(w: WatchStream, start: Map<string, { set: string; ready: boolean }>) {
  const pods = new Map(start);
  let most = pods.size;
  let fewestReady = [...pods.values()].filter((p) => p.ready).length;
  const added: { name: string; set: string; at: number; ready: boolean; readyAt?: number }[] = [];
  const deleted: { name: string; set: string; at: number }[] = [];
  w.events.forEach((e: WatchLine, i) => {
    const name = e.object.metadata.name;
    const at = w.times[i]!;
    if (e.type === "DELETED") {
      pods.delete(name);
      deleted.push({ name, set: podSet(e.object), at });
    } else {
      if (e.type === "ADDED")
        added.push({ name, set: podSet(e.object), at, ready: podReady(e.object) });
      const mine = added.find((a) => a.name === name);
      if (mine && podReady(e.object)) mine.readyAt ??= at;
      pods.set(name, { set: podSet(e.object), ready: podReady(e.object) });
    }
    most = Math.max(most, pods.size);
    fewestReady = Math.min(fewestReady, [...pods.values()].filter((p) => p.ready).length);
  });
  return { most, fewestReady, added, deleted };
}

/** Runs `change` on Deployment `name` (settled at generation 1) and watches it roll out. */
async function rollOut(name: string, body: KObj | Record<string, unknown>, change: unknown) {
  const created = (await c.post<KObj>(DEPLOYMENTS, body)).body;
  expect(created.metadata.name).toBe(name);
  await settled(name, 1);
  const list = (await c.get<{ items: KObj[]; metadata: { resourceVersion: string } }>(PODS)).body;
  const start = new Map(
    list.items
      .filter((p) => p.metadata.name.startsWith(`${name}-`))
      .map((p) => [p.metadata.name, { set: podSet(p), ready: podReady(p) }]),
  );
  const rv = list.metadata.resourceVersion;
  const podWatch = await c.watch(
    `${PODS}?watch=true&resourceVersion=${rv}&labelSelector=app%3D${name}`,
  );
  const deployWatch = await c.watch(
    `${DEPLOYMENTS}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}`,
  );
  const began = Date.now();
  const patched = await c.patch(
    `${DEPLOYMENTS}/${name}`,
    change,
    "application/strategic-merge-patch+json",
  );
  expect(patched.status).toBe(200);
  await settled(name, 2);
  const took = Date.now() - began;
  // Anything still to come (an old ReplicaSet coming back) would come within a few steps.
  await new Promise((r) => setTimeout(r, 10 * STEP_MS));
  podWatch.close();
  deployWatch.close();
  const statuses = deployWatch.events
    .map((e) => statusOf(e.object))
    .filter((s) => s.observedGeneration === 2);
  const events = (await c.get<{ items: KObj[] }>(EVENTS)).body.items
    .filter(
      (e) =>
        (e.involvedObject as { name: string }).name === name && e.reason === "ScalingReplicaSet",
    )
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => e.message as string);
  return { pods: replayPods(podWatch, start), statuses, events, took, start };
}

const image = (tag: string) => ({
  spec: { template: { spec: { containers: [{ name: "nginx", image: `nginx:${tag}` }] } } },
});

/** `deploymentBody` with a strategy. */
function withStrategy(name: string, replicas: number, strategy: unknown) {
  const body = deploymentBody(name, replicas, "nginx:1");
  return { ...body, spec: { ...body.spec, strategy } };
}

describe("a new pod template rolls out", () => {
  it("RollingUpdate, 2 replicas, 25 %/25 %: a new pod up and ready, then an old one down", async () => {
    const { pods, statuses, events, took, start } = await rollOut(
      "ru",
      deploymentBody("ru", 2, "nginx:1"),
      image("2"),
    );
    const oldSet = [...start.values()][0]!.set;
    const newSet = pods.added[0]!.set;
    expect(newSet).not.toBe(oldSet);
    // Two new pods for two replicas, never more than 2 + 1 at once, never fewer than 2 ready.
    expect(pods.added.map((p) => p.set)).toEqual([newSet, newSet]);
    expect(pods.deleted.map((p) => p.set)).toEqual([oldSet, oldSet]);
    expect(pods.most).toBeLessThanOrEqual(3);
    expect(pods.fewestReady).toBeGreaterThanOrEqual(2);
    // A new pod is made not ready, and is ready a ready delay later (as a watcher on a busy
    // machine sees it, to within half of it); an old one goes once one is.
    for (const p of pods.added) {
      expect(p.ready).toBe(false);
      expect(p.readyAt! - p.at).toBeGreaterThanOrEqual(READY_MS / 2);
    }
    expect(pods.deleted[0]!.at).toBeGreaterThanOrEqual(pods.added[0]!.readyAt!);
    expect(took).toBeGreaterThanOrEqual(2 * READY_MS);
    expect(events).toEqual([
      `Scaled up replica set ${oldSet} to 2`,
      `Scaled up replica set ${newSet} to 1`,
      `Scaled down replica set ${oldSet} to 1 from 2`,
      `Scaled up replica set ${newSet} to 2 from 1`,
      `Scaled down replica set ${oldSet} to 0 from 1`,
    ]);
    // The status counts every pod, the new ones as updated, never flipping back.
    const updated = statuses.map((s) => s.updatedReplicas ?? 0);
    expect(updated).toEqual([...updated].sort((a, b) => a - b));
    expect(statuses.every((s) => (s.availableReplicas ?? 0) >= 2)).toBe(true);
    expect(statuses.some((s) => s.replicas === 3 && s.updatedReplicas === 1)).toBe(true);
    const reasons = [...new Set(statuses.map((s) => progressing(s)?.reason))];
    expect(reasons).toContain("ReplicaSetUpdated");
    expect(reasons.at(-1)).toBe("NewReplicaSetAvailable");
  });

  it("RollingUpdate with maxSurge 0, maxUnavailable 1: an old pod down first, never more than 3", async () => {
    const { pods, events, start } = await rollOut(
      "ints",
      withStrategy("ints", 3, {
        type: "RollingUpdate",
        rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
      }),
      image("2"),
    );
    const oldSet = [...start.values()][0]!.set;
    expect(pods.added).toHaveLength(3);
    expect(pods.most).toBe(3);
    expect(pods.fewestReady).toBe(2);
    expect(pods.deleted[0]!.at).toBeLessThan(pods.added[0]!.at);
    expect(events[1]).toBe(`Scaled down replica set ${oldSet} to 2 from 3`);
  });

  it("RollingUpdate with maxSurge 50 %, maxUnavailable 0 %: two new pods at once for 4 replicas", async () => {
    const { pods, events } = await rollOut(
      "pct",
      withStrategy("pct", 4, {
        type: "RollingUpdate",
        rollingUpdate: { maxSurge: "50%", maxUnavailable: "0%" },
      }),
      image("2"),
    );
    const newSet = pods.added[0]!.set;
    expect(pods.added).toHaveLength(4);
    expect(pods.most).toBe(6);
    expect(pods.fewestReady).toBe(4);
    expect(events[1]).toBe(`Scaled up replica set ${newSet} to 2`);
  });

  it("Recreate: every old pod gone before the first new one is made", async () => {
    const { pods, events, start, statuses } = await rollOut(
      "re",
      withStrategy("re", 2, { type: "Recreate" }),
      image("2"),
    );
    const oldSet = [...start.values()][0]!.set;
    const newSet = pods.added[0]!.set;
    expect(pods.deleted.map((p) => p.set)).toEqual([oldSet, oldSet]);
    expect(pods.added.map((p) => p.set)).toEqual([newSet, newSet]);
    expect(Math.max(...pods.deleted.map((p) => p.at))).toBeLessThanOrEqual(
      Math.min(...pods.added.map((p) => p.at)),
    );
    expect(events.slice(1)).toEqual([
      `Scaled down replica set ${oldSet} to 0 from 2`,
      `Scaled up replica set ${newSet} to 2`,
    ]);
    // Between the two: no pod at all, and the Deployment says it is not available.
    expect(statuses).toContainEqual(
      expect.objectContaining({
        replicas: 0,
        updatedReplicas: 0,
        conditions: expect.arrayContaining([
          expect.objectContaining({ type: "Available", status: "False" }),
        ]),
      }),
    );
  });
});
