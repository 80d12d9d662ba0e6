/**
 * Rollouts as a user drives them with the real kubectl: `set image` then `rollout status` (the
 * waiting lines of each round, done once the new pods are available), `rollout pause` / `resume`
 * (nothing rolls out while paused, scaling still does), and a Deployment made again over the
 * ReplicaSet it left with `delete --cascade=orphan` (adopted with its running pods).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import { DEPLOYMENTS, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const kubectl = findDefaultKubectl();
if (!kubectl) console.warn("\n*** kubectl NOT FOUND on PATH: rollout tests SKIPPED ***\n");

const READY_MS = 1000;

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

const rows = (out: string) =>
  out
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.trim().split(/\s{2,}/));

describe.skipIf(!kubectl)("kubectl rollout", { timeout: 120_000 }, () => {
  let server: ApiServer;
  let k: Kubectl;
  let c: RawClient;
  let cleanup: () => Promise<void>;
  const json = async (...args: string[]) => JSON.parse(await k.run(...args, "-o", "json"));
  /** Pods of Deployment `app`: name, status, image, ReplicaSet. */
  const pods = async (app: string) =>
    (await json("get", "pods", "-l", `app=${app}`)).items.map((p: KObj) => ({
      name: p.metadata.name,
      phase: (p.status as { phase: string }).phase,
      image: (p.spec as { containers: { image: string }[] }).containers[0]!.image,
      set: (p.metadata.ownerReferences as { name: string }[])[0]!.name,
    }));
  const progressing = (d: KObj) =>
    ((d.status?.conditions ?? []) as Condition[]).find((x) => x.type === "Progressing");
  /** The Deployment's ScalingReplicaSet messages, oldest first. */
  const scalings = async (name: string) =>
    (await json("get", "events", "--field-selector", `involvedObject.name=${name}`)).items
      .filter((e: KObj) => e.reason === "ScalingReplicaSet")
      .sort(
        (a: KObj, b: KObj) =>
          Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion),
      )
      .map((e: KObj) => e.message);

  beforeAll(async () => {
    server = await startApiServer({
      deploymentReadyDelayMs: READY_MS,
      garbageCollectionDelayMs: 1,
    });
    ({ k, cleanup } = await kubectlFor(kubectl as string, server));
    c = new RawClient(server.url);
  });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  it("set image: rollout status waits round by round until the new pods are available", async () => {
    await k.run("create", "deploy", "pc", "--image=nginx:1", "--replicas=2");
    await k.run("rollout", "status", "deploy/pc", "--timeout=60s");
    const [oldSet] = (await pods("pc")).map((p: { set: string }) => p.set);
    await k.run("set", "image", "deploy/pc", "nginx=nginx:2");
    const began = Date.now();
    const out = await k.run("rollout", "status", "deploy/pc", "--timeout=60s");
    // Two rounds: each new pod becomes ready a ready delay after it was made.
    expect(Date.now() - began).toBeGreaterThanOrEqual(2 * READY_MS);
    expect(out).toContain(
      'Waiting for deployment "pc" rollout to finish: 1 out of 2 new replicas have been updated...\n',
    );
    expect(out).toContain(
      'Waiting for deployment "pc" rollout to finish: 1 old replicas are pending termination...\n',
    );
    expect(out.endsWith('deployment "pc" successfully rolled out\n')).toBe(true);
    const now = await pods("pc");
    expect(now.map((p: { phase: string; image: string }) => [p.phase, p.image])).toEqual([
      ["Running", "nginx:2"],
      ["Running", "nginx:2"],
    ]);
    const newSet = now[0].set;
    expect(await scalings("pc")).toEqual([
      `Scaled up replica set ${oldSet} to 2`,
      `Scaled up replica set ${newSet} to 1`,
      `Scaled down replica set ${oldSet} to 1 from 2`,
      `Scaled up replica set ${newSet} to 2 from 1`,
      `Scaled down replica set ${oldSet} to 0 from 1`,
    ]);
    const described = await k.run("describe", "deploy", "pc");
    expect(described.match(/ScalingReplicaSet/g)).toHaveLength(5);
    expect(described).toMatch(/Progressing\s+True\s+NewReplicaSetAvailable/);
    expect(described).toMatch(
      new RegExp(`OldReplicaSets:\\s+${oldSet} \\(0/0 replicas created\\)`),
    );
    expect(described).toMatch(new RegExp(`NewReplicaSet:\\s+${newSet} \\(2/2 replicas created\\)`));
  });

  it("rollout pause: a new template waits, a scale applies; rollout resume rolls it out", async () => {
    await k.run("create", "deploy", "pz", "--image=nginx:1", "--replicas=2");
    await k.run("rollout", "status", "deploy/pz", "--timeout=60s");
    const history = await k.run("rollout", "history", "deploy/pz");
    const [set] = (await pods("pz")).map((p: { set: string }) => p.set);

    await k.run("rollout", "pause", "deploy/pz");
    const paused = await eventually(async () => {
      const d = await json("get", "deploy", "pz");
      return d.status.observedGeneration === d.metadata.generation && d;
    }, 50);
    expect(progressing(paused)).toMatchObject({
      status: "Unknown",
      reason: "DeploymentPaused",
      message: "Deployment is paused",
    });
    await k.run("set", "image", "deploy/pz", "nginx=nginx:3");
    await k.run("scale", "deploy/pz", "--replicas=3");
    await eventually(async () => {
      const now = await pods("pz");
      return now.length === 3 && now.every((p: { phase: string }) => p.phase === "Running");
    }, 100);
    // Longer than a round would take: the template still waits.
    await new Promise((r) => setTimeout(r, 2 * READY_MS));
    const held = await pods("pz");
    expect(held.map((p: { set: string; image: string }) => [p.set, p.image])).toEqual(
      Array(3).fill([set, "nginx:1"]),
    );
    expect(rows(await k.run("get", "rs", "-l", "app=pz", "--no-headers"))).toHaveLength(1);
    expect(await k.run("rollout", "history", "deploy/pz")).toBe(history);
    const waiting = await json("get", "deploy", "pz");
    expect(waiting.status).toMatchObject({
      observedGeneration: waiting.metadata.generation,
      replicas: 3,
      readyReplicas: 3,
    });
    // No pod has the Deployment's template yet.
    expect(waiting.status.updatedReplicas ?? 0).toBe(0);
    expect(progressing(waiting)?.reason).toBe("DeploymentPaused");
    expect(await k.run("describe", "deploy", "pz")).not.toMatch(/ReplicaSetUpdated/);

    const watch = await c.watch(
      `${DEPLOYMENTS}?watch=true&fieldSelector=metadata.name%3Dpz&resourceVersion=${waiting.metadata.resourceVersion}`,
    );
    await k.run("rollout", "resume", "deploy/pz");
    const out = await k.run("rollout", "status", "deploy/pz", "--timeout=60s");
    watch.close();
    expect(out.endsWith('deployment "pz" successfully rolled out\n')).toBe(true);
    expect(watch.events.map((e) => progressing(e.object))).toContainEqual(
      expect.objectContaining({
        status: "Unknown",
        reason: "DeploymentResumed",
        message: "Deployment is resumed",
      }),
    );
    const done = await pods("pz");
    expect(done.map((p: { image: string }) => p.image)).toEqual(Array(3).fill("nginx:3"));
    expect(await k.run("rollout", "history", "deploy/pz")).toMatch(/^1\s+<none>\n2\s+<none>$/m);
  });

  it("a Deployment made again over its orphaned ReplicaSet keeps its running pods", async () => {
    await k.run("create", "deploy", "ad", "--image=nginx:1", "--replicas=2");
    await k.run("rollout", "status", "deploy/ad", "--timeout=60s");
    // Names and resourceVersions: a pod made again, or made unready and ready again, shows.
    const versions = async () =>
      (await json("get", "pods", "-l", "app=ad")).items.map((p: KObj) => [
        p.metadata.name,
        p.metadata.resourceVersion,
      ]);
    const before = await pods("ad");
    const unchanged = await versions();
    await k.run("delete", "deploy", "ad", "--cascade=orphan");
    expect(await versions()).toEqual(unchanged);
    await k.run("create", "deploy", "ad", "--image=nginx:1", "--replicas=2");
    await k.run("rollout", "status", "deploy/ad", "--timeout=60s");
    // Past a ready delay: nothing replaces them later either.
    await new Promise((r) => setTimeout(r, READY_MS + 500));
    expect(await versions()).toEqual(unchanged);
    const deploy = await json("get", "deploy", "ad");
    const rs = await json("get", "rs", before[0].set);
    expect(rs.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: "Deployment", uid: deploy.metadata.uid, controller: true }),
    ]);
    expect(deploy.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
    const events = await k.run("get", "events", "-o", "custom-columns=R:.reason,M:.message");
    for (const p of before) expect(events).not.toContain(`Deleted pod: ${p.name}`);
  });
});
