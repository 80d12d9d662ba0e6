/**
 * The simulated ReplicaSets against a Deployment deleted and made again at once with the same
 * template (the "deleted child" lesson: the Foo controller recreates its Deployment): the new
 * Deployment's ReplicaSet has the old one's name, and the old one is still there until the
 * garbage collector takes it — or, orphaned (`--cascade=orphan`), is adopted with its pods, and
 * so is every older orphaned ReplicaSet the selector matches.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../index.ts";
import {
  DEPLOYMENTS,
  RawClient,
  deploymentBody,
  eventually,
  type KObj,
} from "../testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({
    deploymentReadyDelayMs: 60,
    deploymentStepDelayMs: 5,
    garbageCollectionDelayMs: 300,
  });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const list = async (path: string) => (await c.get<{ items: KObj[] }>(path)).body.items;
const ownedBy = (o: KObj, uid: string | undefined) =>
  (o.metadata.ownerReferences as { uid: string }[] | undefined)?.some((r) => r.uid === uid);
const RS = "/apis/apps/v1/namespaces/default/replicasets";
const PODS = "/api/v1/namespaces/default/pods";

/** The Deployment's ReplicaSets and their pods, as owner uid → names. */
async function owned(deployUid: string) {
  const sets = (await list(RS)).filter((rs) => ownedBy(rs, deployUid));
  const pods = (await list(PODS)).filter((p) => sets.some((rs) => ownedBy(p, rs.metadata.uid)));
  return { sets, pods, allPods: await list(PODS) };
}

it("a Deployment made again at once gets its ReplicaSet and pods once the old ones are collected", async () => {
  const first = await c.post<KObj>(DEPLOYMENTS, deploymentBody("again", 2));
  await eventually(async () => (await owned(first.body.metadata.uid!)).pods.length === 2);
  await c.delete(`${DEPLOYMENTS}/again`);
  const second = await c.post<KObj>(DEPLOYMENTS, deploymentBody("again", 2));
  expect(second.status).toBe(201);
  const uid = second.body.metadata.uid!;
  await eventually(async () => {
    const { sets, pods, allPods } = await owned(uid);
    return sets.length === 1 && pods.length === 2 && allPods.length === 2;
  });
  // …and stays so: nothing of the old Deployment's takes it back.
  await new Promise((r) => setTimeout(r, 300));
  const { sets, pods, allPods } = await owned(uid);
  expect([sets.length, pods.length, allPods.length]).toEqual([1, 2, 2]);
});

it("a Deployment made again over its orphaned ReplicaSet adopts it with its running pods", async () => {
  const first = await c.post<KObj>(DEPLOYMENTS, deploymentBody("orphans", 2));
  await eventually(async () => {
    const { pods } = await owned(first.body.metadata.uid!);
    return pods.length === 2 && pods.every((p) => p.status?.phase === "Running");
  });
  await c.delete(`${DEPLOYMENTS}/orphans`, { propagationPolicy: "Orphan" });
  // Orphaned: the ReplicaSet loses its owner, the pods stay.
  await eventually(async () =>
    (await list(RS)).some(
      (rs) => rs.metadata.name.startsWith("orphans-") && !rs.metadata.ownerReferences?.length,
    ),
  );
  const orphaned = await c.get<{ items: KObj[]; metadata: { resourceVersion: string } }>(PODS);
  const pods = orphaned.body.items.filter((p) => p.metadata.name.startsWith("orphans-"));
  const watch = await c.watch(
    `${PODS}?watch=true&labelSelector=app%3Dorphans&resourceVersion=${orphaned.body.metadata.resourceVersion}`,
  );
  const second = await c.post<KObj>(DEPLOYMENTS, deploymentBody("orphans", 2));
  const uid = second.body.metadata.uid!;
  await eventually(async () => (await owned(uid)).sets.length === 1);
  const deployment: KObj = await eventually(async () => {
    const d = (await c.get<KObj>(`${DEPLOYMENTS}/orphans`)).body;
    return d.status?.availableReplicas === 2 ? d : undefined;
  });
  // Past the ready delay: nothing replaces them, nor makes them unready, later either.
  await new Promise((r) => setTimeout(r, 300));
  watch.close();
  expect(watch.events).toEqual([]);
  const now = await owned(uid);
  expect(now.pods.map((p) => p.metadata.name).sort()).toEqual(
    pods.map((p) => p.metadata.name).sort(),
  );
  expect(now.allPods.filter((p) => p.metadata.name.startsWith("orphans-"))).toHaveLength(2);
  // As the real controller does: the ReplicaSet's revision, and "Found new replica set".
  expect(deployment.metadata.annotations?.["deployment.kubernetes.io/revision"]).toBe("1");
  expect((deployment.status?.conditions as { reason: string }[]).map((x) => x.reason)).toContain(
    "NewReplicaSetAvailable",
  );
});

it("a Deployment made again adopts every orphaned ReplicaSet its selector matches, old revisions too", async () => {
  const first = await c.post<KObj>(DEPLOYMENTS, deploymentBody("history", 1, "nginx:1.25"));
  const firstUid = first.body.metadata.uid!;
  await eventually(async () => (await owned(firstUid)).pods.length === 1);
  await c.patch(`${DEPLOYMENTS}/history`, {
    spec: { template: { spec: { containers: [{ name: "nginx", image: "nginx:1.26" }] } } },
  });
  // The rollout is done: two ReplicaSets, revisions 1 and 2, the old one at 0.
  await eventually(async () => {
    const { sets } = await owned(firstUid);
    return (
      sets.length === 2 &&
      sets.some((rs) => rs.spec?.replicas === 0) &&
      sets.some((rs) => rs.status?.readyReplicas === 1)
    );
  });
  await c.delete(`${DEPLOYMENTS}/history`, { propagationPolicy: "Orphan" });
  await eventually(async () =>
    (await list(RS)).every(
      (rs) => !rs.metadata.name.startsWith("history-") || !rs.metadata.ownerReferences?.length,
    ),
  );
  const second = await c.post<KObj>(DEPLOYMENTS, deploymentBody("history", 1, "nginx:1.26"));
  const uid = second.body.metadata.uid!;
  // Both are adopted, each keeping its revision; the Deployment goes on from the highest.
  const sets = await eventually(async () => {
    const s = (await owned(uid)).sets;
    return s.length === 2 ? s : undefined;
  });
  const revisions = sets
    .map((rs) => rs.metadata.annotations?.["deployment.kubernetes.io/revision"])
    .sort();
  expect(revisions).toEqual(["1", "2"]);
  await eventually(
    async () =>
      (await c.get<KObj>(`${DEPLOYMENTS}/history`)).body.metadata.annotations?.[
        "deployment.kubernetes.io/revision"
      ] === "2",
  );
  // A foreground delete collects them all.
  await c.delete(`${DEPLOYMENTS}/history`, { propagationPolicy: "Foreground" });
  await eventually(async () =>
    (await list(RS)).every((rs) => !rs.metadata.name.startsWith("history-")),
  );
});
