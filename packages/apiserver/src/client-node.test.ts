/**
 * @kubernetes/client-node 1.4.0 against the embedded server over HTTP: informers (add / update /
 * delete in order; recovery from a closed watch and from 410 Expired), and typed API calls.
 */
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { deploymentBody, eventually } from "./testing/raw-client.ts";

const GROUP = "samplecontroller.k8s.io";
const VERSION = "v1alpha1";
const FOO_PATH = `/apis/${GROUP}/${VERSION}/namespaces/default/foos`;

type Foo = k8s.KubernetesObject & {
  spec?: { deploymentName?: string; replicas?: number };
  status?: { availableReplicas?: number };
};

let server: ApiServer;
let kc: k8s.KubeConfig;
let co: k8s.CustomObjectsApi;
let apps: k8s.AppsV1Api;

beforeAll(async () => {
  server = await startApiServer({
    deploymentReadyDelayMs: 30,
    deploymentStepDelayMs: 5,
    garbageCollectionDelayMs: 1,
  });
  kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfigYaml());
  co = kc.makeApiClient(k8s.CustomObjectsApi);
  apps = kc.makeApiClient(k8s.AppsV1Api);
});
afterAll(() => server.stop());

const fooBody = (name: string, replicas = 1): Foo => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: "Foo",
  metadata: { name },
  spec: { deploymentName: name, replicas },
});

const createFoo = (name: string, replicas = 1) =>
  co.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: "default",
    plural: "foos",
    body: fooBody(name, replicas),
  }) as Promise<Foo>;

/** An informer whose handlers log "verb name" and which counts its list calls. */
function fooInformer(prefix: string) {
  const log: string[] = [];
  let lists = 0;
  const informer = k8s.makeInformer<Foo>(kc, FOO_PATH, () => {
    lists++;
    return co.listNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
    }) as Promise<k8s.KubernetesListObject<Foo>>;
  });
  for (const verb of [k8s.ADD, k8s.UPDATE, k8s.DELETE] as const) {
    informer.on(verb, (obj) => {
      if (obj.metadata?.name?.startsWith(prefix)) log.push(`${verb} ${obj.metadata.name}`);
    });
  }
  const errors: unknown[] = [];
  informer.on(k8s.ERROR, (err) => errors.push(err));
  return { informer, log, errors, lists: () => lists };
}

describe("client-node informers", () => {
  it("see Foo and Deployment add/update/delete in order", async () => {
    const foos = fooInformer("inf-");
    const deployLog: string[] = [];
    const deployInformer = k8s.makeInformer<k8s.V1Deployment>(
      kc,
      "/apis/apps/v1/namespaces/default/deployments",
      () => apps.listNamespacedDeployment({ namespace: "default" }),
    );
    for (const verb of [k8s.ADD, k8s.UPDATE, k8s.DELETE] as const) {
      deployInformer.on(verb, (d) => deployLog.push(`${verb} ${d.metadata?.name}`));
    }
    await foos.informer.start();
    await deployInformer.start();
    await createFoo("inf-a");
    await co.patchNamespacedCustomObject(
      {
        group: GROUP,
        version: VERSION,
        namespace: "default",
        plural: "foos",
        name: "inf-a",
        body: { spec: { replicas: 2 } },
      },
      k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
    );
    await co.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "inf-a",
    });
    await apps.createNamespacedDeployment({
      namespace: "default",
      body: deploymentBody("inf-d") as k8s.V1Deployment,
    });
    await apps.patchNamespacedDeployment(
      { name: "inf-d", namespace: "default", body: { spec: { replicas: 2 } } },
      k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.StrategicMergePatch),
    );
    await apps.deleteNamespacedDeployment({ name: "inf-d", namespace: "default" });
    await eventually(() => foos.log.length >= 3 && deployLog.includes("delete inf-d"));
    await foos.informer.stop();
    await deployInformer.stop();
    expect(foos.log).toEqual(["add inf-a", "update inf-a", "delete inf-a"]);
    // Updates come from the patch and from the simulated Deployment controller's status writes.
    expect(deployLog[0]).toBe("add inf-d");
    expect(deployLog.slice(1, -1).length).toBeGreaterThan(0);
    expect(deployLog.slice(1, -1).every((e) => e === "update inf-d")).toBe(true);
    expect(deployLog[deployLog.length - 1]).toBe("delete inf-d");
    expect(foos.lists()).toBe(1);
  });

  it("re-watches without listing after the server closes the watch", async () => {
    const foos = fooInformer("close-");
    await foos.informer.start();
    await createFoo("close-a");
    await eventually(() => foos.log.length === 1);
    server.faults.closeAllWatches();
    await eventually(() => server.activeWatches() > 0);
    await createFoo("close-b");
    await eventually(() => foos.log.length === 2);
    await foos.informer.stop();
    expect(foos.log).toEqual(["add close-a", "add close-b"]);
    expect(foos.lists()).toBe(1);
    expect(foos.errors.filter((e) => !String(e).includes("abort"))).toEqual([]);
  });

  it("re-lists after a 410 Expired and misses nothing", async () => {
    const foos = fooInformer("gone-");
    await foos.informer.start();
    await createFoo("gone-a");
    await eventually(() => foos.log.length === 1);
    server.faults.expireNextWatch();
    server.faults.closeAllWatches();
    await createFoo("gone-b");
    await eventually(() => foos.lists() >= 2 && foos.log.includes("add gone-b"));
    await createFoo("gone-c");
    await eventually(() => foos.log.includes("add gone-c"));
    await foos.informer.stop();
    expect(foos.log).toEqual(["add gone-a", "add gone-b", "add gone-c"]);
  });
});

describe("client-node typed calls", () => {
  it("create, get, replace status, conflict and delete through CustomObjectsApi", async () => {
    const created = await createFoo("typed-foo", 2);
    expect(created.metadata?.uid).toBeTruthy();
    const got = (await co.getNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "typed-foo",
    })) as Foo;
    const updated = (await co.replaceNamespacedCustomObjectStatus({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "typed-foo",
      body: { ...got, status: { availableReplicas: 2 } },
    })) as Foo;
    expect(updated.status).toEqual({ availableReplicas: 2 });
    expect(updated.metadata?.resourceVersion).not.toBe(got.metadata?.resourceVersion);
    const stale = co.replaceNamespacedCustomObjectStatus({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "typed-foo",
      body: { ...got, status: { availableReplicas: 1 } },
    });
    const err = (await stale.then(
      () => undefined,
      (e: unknown) => e,
    )) as k8s.ApiException<string>;
    expect(err.code).toBe(409);
    expect(JSON.parse(err.body)).toMatchObject({ reason: "Conflict" });
    // client-node's default patch type is JSON patch.
    const jp = (await co.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "typed-foo",
      body: [{ op: "replace", path: "/spec/replicas", value: 3 }],
    })) as Foo;
    expect(jp.spec?.replicas).toBe(3);
    await co.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      name: "typed-foo",
    });
    const missing = (await co
      .getNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        namespace: "default",
        plural: "foos",
        name: "typed-foo",
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as k8s.ApiException<string>;
    expect(missing.code).toBe(404);
  });

  it("create, read, replace and scale through AppsV1Api", async () => {
    const d = await apps.createNamespacedDeployment({
      namespace: "default",
      body: deploymentBody("typed-d") as k8s.V1Deployment,
    });
    expect(d.spec?.strategy?.type).toBe("RollingUpdate");
    const ready = await eventually(async () => {
      const cur = await apps.readNamespacedDeployment({ name: "typed-d", namespace: "default" });
      return cur.status?.availableReplicas === 1 ? cur : undefined;
    });
    expect(ready.metadata?.creationTimestamp).toBeInstanceOf(Date);
    // A typed round trip re-serializes timestamps with milliseconds; nothing changed, so no new RV.
    const same = await apps.replaceNamespacedDeployment({
      name: "typed-d",
      namespace: "default",
      body: ready,
    });
    expect(same.metadata?.resourceVersion).toBe(ready.metadata?.resourceVersion);
    const scaled = await apps.patchNamespacedDeploymentScale(
      { name: "typed-d", namespace: "default", body: { spec: { replicas: 2 } } },
      k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
    );
    expect(scaled.spec?.replicas).toBe(2);
    const status = await apps.readNamespacedDeploymentStatus({
      name: "typed-d",
      namespace: "default",
    });
    expect(status.spec?.replicas).toBe(2);
  });
});
