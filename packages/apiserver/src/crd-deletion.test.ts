/**
 * Deleting the Foo CRD, as on a real API server (apiextensions-apiserver): the CRD is marked
 * (Terminating, the cleanup finalizer), every Foo is deleted — a DELETED watch event each — and
 * then the CRD is gone, every open Foo watch ends, and the Foo API is gone: list, watch and get
 * answer 404 and discovery no longer has it (nor its group), until the CRD is created again.
 * Over real HTTP, and with the real kubectl.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import { FOOS, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.samplecontroller.k8s.io";
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const CRD_YAML = fileURLToPath(new URL("../../../public/manifests/crd.yaml", import.meta.url));
const ALL_FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/foos";
const AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

let server: ApiServer;
let c: RawClient;

/**
 * What a cluster answers for a custom resource path whose CRD is gone: apiextensions hands the
 * request on, and kube-apiserver's last handler (NotFoundHandler) answers Go's plain-text 404.
 */
const PAGE_NOT_FOUND = "404 page not found\n";

/** crd.yaml's object, as `kubectl create -f` sends it. */
async function crdBody(): Promise<unknown> {
  return parse(await readFile(CRD_YAML, "utf8")) as unknown;
}

async function gone(): Promise<void> {
  await eventually(async () => (await c.get(CRD)).status === 404);
}

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());
afterEach(async () => {
  // Each test starts with the CRD in place, as the server starts.
  if ((await c.get(CRD)).status === 404) {
    const r = await c.post(CRDS, await crdBody());
    expect(r.status).toBe(201);
  }
});

describe("deleting the Foo CRD", () => {
  it("deletes every Foo (a DELETED event each), then ends the open Foo watches", async () => {
    await c.createFoo("a");
    await c.createFoo("b");
    const list = await c.get<{ metadata: { resourceVersion: string } }>(ALL_FOOS);
    const w = await c.watch(
      `${ALL_FOOS}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    const deleted = await c.delete<KObj>(CRD);
    // Marked, as apiextensions' REST Delete marks it; the finalizer controller does the rest.
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.deletionTimestamp).toEqual(expect.any(String));
    expect(deleted.body.metadata.finalizers).toEqual([
      "customresourcecleanup.apiextensions.k8s.io",
    ]);
    expect((deleted.body.status as { conditions: unknown[] }).conditions).toContainEqual(
      expect.objectContaining({
        type: "Terminating",
        status: "True",
        reason: "InstanceDeletionPending",
      }),
    );
    await w.ended;
    expect(w.events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual([
      "DELETED a",
      "DELETED b",
    ]);
    expect(server.activeWatches()).toBe(0);
    await gone();
  });

  it("leaves the Foo API gone: list, watch, get and create answer 404 page not found, discovery lacks it", async () => {
    await c.createFoo("c");
    expect((await c.delete(CRD)).status).toBe(200);
    await gone();
    for (const path of [FOOS, ALL_FOOS, `${FOOS}/c`, `${FOOS}?watch=true`, `${FOOS}/c/status`]) {
      const r = await c.get(path);
      expect([path, r.status, r.headers.get("content-type"), r.body]).toEqual([
        path,
        404,
        "text/plain; charset=utf-8",
        PAGE_NOT_FOUND,
      ]);
    }
    const create = await c.post(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "d" },
    });
    expect([create.status, create.body]).toEqual([404, PAGE_NOT_FOUND]);
    expect((await c.get("/apis/samplecontroller.k8s.io/v1alpha1")).status).toBe(404);
    expect((await c.get("/apis/samplecontroller.k8s.io")).status).toBe(404);
    const groups = await c.get<{ groups: { name: string }[] }>("/apis");
    expect(groups.body.groups.map((g) => g.name)).not.toContain("samplecontroller.k8s.io");
    const aggregated = await c.get<{ items: { metadata: { name: string } }[] }>(
      "/apis",
      AGGREGATED,
    );
    expect(aggregated.body.items.map((i) => i.metadata.name)).not.toContain(
      "samplecontroller.k8s.io",
    );
  });

  it("client-node reads the gone Foo API's answers as 404s: its typed calls and its Watch", async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(server.kubeconfigYaml());
    const co = kc.makeApiClient(k8s.CustomObjectsApi);
    const foo = { group: "samplecontroller.k8s.io", version: "v1alpha1", plural: "foos" };
    expect((await c.delete(CRD)).status).toBe(200);
    await gone();
    await expect(co.listNamespacedCustomObject({ ...foo, namespace: "default" })).rejects.toEqual(
      expect.objectContaining({ code: 404, body: PAGE_NOT_FOUND }),
    );
    await expect(
      co.createNamespacedCustomObject({ ...foo, namespace: "default", body: {} }),
    ).rejects.toEqual(expect.objectContaining({ code: 404 }));
    const watchEnded = new Promise<unknown>((resolve) => {
      void new k8s.Watch(kc).watch(FOOS, {}, () => {}, resolve);
    });
    expect(await watchEnded).toEqual(expect.objectContaining({ statusCode: 404 }));
  });

  it("serves Foos again once the CRD is created again, and none of the old ones", async () => {
    await c.createFoo("e");
    const before = await c.get<{ metadata: { resourceVersion: string } }>(ALL_FOOS);
    expect((await c.delete(CRD)).status).toBe(200);
    await gone();
    expect((await c.post(CRDS, await crdBody())).status).toBe(201);
    const list = await c.get<{ items: unknown[] }>(FOOS);
    expect([list.status, list.body.items]).toEqual([200, []]);
    // A new storage's watch cache starts now: a watch from before the deletion is Expired.
    const stale = await c.watch(
      `${ALL_FOOS}?watch=true&resourceVersion=${before.body.metadata.resourceVersion}`,
    );
    await stale.ended;
    expect(stale.events.map((e) => [e.type, e.object.code])).toEqual([["ERROR", 410]]);
    await c.createFoo("f");
    expect((await c.get(`${FOOS}/f`)).status).toBe(200);
  });

  it("refuses creates while the CRD is terminating, as apiextensions does", async () => {
    await c.createFoo("held", 1, { metadata: { name: "held", finalizers: ["example.com/hold"] } });
    expect((await c.delete(CRD)).status).toBe(200);
    // The Foo's own finalizer holds the CRD's deletion.
    await eventually(async () => {
      const held = await c.get<KObj>(`${FOOS}/held`);
      return held.body.metadata.deletionTimestamp;
    });
    const r = await c.post(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "late" },
    });
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({
      reason: "MethodNotAllowed",
      message: "create not allowed while custom resource definition is terminating",
      details: { group: "samplecontroller.k8s.io", kind: "foos" },
    });
    const crd = await c.get<KObj>(CRD);
    expect((crd.body.status as { conditions: unknown[] }).conditions).toContainEqual(
      expect.objectContaining({ type: "Terminating", reason: "InstanceDeletionInProgress" }),
    );
    // Its finalizer removed, the Foo goes, and the CRD after it.
    await c.patch(`${FOOS}/held`, { metadata: { finalizers: null } });
    await gone();
  });
});

const kubectlBin = findDefaultKubectl();

describe.skipIf(!kubectlBin)("kubectl and a deleted Foo CRD", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectlBin!, server));
  });
  afterAll(() => cleanup());

  it("kubectl get foos says the server has no such resource type; apply -f crd.yaml brings it back", async () => {
    await c.createFoo("k");
    // Discovery is cached now, with foos in it, as a user's kubectl has it for 6 hours.
    expect(await k.run("get", "foos", "-o", "name")).toBe("foo.samplecontroller.k8s.io/k\n");
    expect(await k.run("delete", "crd", "foos.samplecontroller.k8s.io")).toBe(
      'customresourcedefinition.apiextensions.k8s.io "foos.samplecontroller.k8s.io" deleted\n',
    );
    // Fresh discovery no longer has foos.
    const fresh = join(k.env.HOME ?? "", "fresh-cache");
    await expect(k.run("--cache-dir", fresh, "get", "foos")).rejects.toThrow(
      /error: the server doesn't have a resource type "foos"/,
    );
    // A cached one still maps it, and the 404s say the rest, as kubectl words a cluster's.
    await expect(k.run("get", "foos")).rejects.toThrow(
      'Error from server (NotFound): Unable to list "samplecontroller.k8s.io/v1alpha1, Resource=foos": the server could not find the requested resource (get foos.samplecontroller.k8s.io)\n',
    );
    await expect(k.run("get", "foo", "k")).rejects.toThrow(
      "Error from server (NotFound): the server could not find the requested resource (get foos.samplecontroller.k8s.io k)\n",
    );
    await expect(k.run("delete", "foo", "k")).rejects.toThrow(
      "Error from server (NotFound): the server could not find the requested resource (delete foos.samplecontroller.k8s.io k)\n",
    );
    expect(await k.run("apply", "-f", CRD_YAML)).toBe(
      "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io created\n",
    );
    expect(await k.run("--cache-dir", join(fresh, "again"), "get", "foos", "-o", "name")).toBe("");
  });
});
