/**
 * Discovery, OpenAPI and /version, in the shapes kubectl and client-node rely on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { RawClient } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const AGG =
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

describe("discovery", () => {
  it("reports version 1.32 so the kubectl dispatcher picks kubectl 1.32", async () => {
    const r = await c.get("/version?timeout=5s");
    expect(r.body).toMatchObject({ major: "1", minor: "32", gitVersion: "v1.32.0" });
  });

  it("serves aggregated discovery with the exact content type", async () => {
    const r = await c.get<{
      kind: string;
      items: { metadata: { name: string }; versions: { resources: { resource: string }[] }[] }[];
    }>("/apis", AGG);
    expect(r.headers.get("content-type")).toBe(
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    );
    expect(r.body.kind).toBe("APIGroupDiscoveryList");
    const groups = Object.fromEntries(
      r.body.items.map((g) => [g.metadata.name, g.versions[0].resources.map((x) => x.resource)]),
    );
    expect(groups["apps"]).toEqual(["deployments", "replicasets"]);
    expect(groups["samplecontroller.k8s.io"]).toEqual(["foos"]);
    const old = await c.get(
      "/apis",
      "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
    );
    expect(old.headers.get("content-type")).toContain("v=v2beta1");
    const core = await c.get<{ items: { versions: { resources: { resource: string }[] }[] }[] }>(
      "/api",
      AGG,
    );
    expect(core.body.items[0].versions[0].resources.map((x) => x.resource)).toEqual([
      "namespaces",
      "nodes",
      "events",
      "pods",
      "services",
    ]);
    // The simulation's own objects are read-only.
    const pods = await c.get<{ resources: { name: string; verbs: string[] }[] }>("/api/v1");
    expect(pods.body.resources.find((x) => x.name === "pods")?.verbs).toEqual([
      "get",
      "list",
      "watch",
    ]);
  });

  it("serves legacy discovery, main resources before subresources", async () => {
    const groups = await c.get<{ kind: string; groups: { name: string }[] }>("/apis");
    expect(groups.headers.get("content-type")).toBe("application/json");
    expect(groups.body.kind).toBe("APIGroupList");
    expect(groups.body.groups.map((g) => g.name)).toEqual([
      "apps",
      "samplecontroller.k8s.io",
      "apiextensions.k8s.io",
      "coordination.k8s.io",
      "authentication.k8s.io",
      "authorization.k8s.io",
    ]);
    const apps = await c.get<{ resources: { name: string; kind: string }[] }>("/apis/apps/v1");
    expect(apps.body.resources.map((r) => r.name)).toEqual([
      "deployments",
      "deployments/scale",
      "deployments/status",
      "replicasets",
    ]);
    expect((await c.get<{ versions: string[] }>("/api")).body.versions).toEqual(["v1"]);
  });

  it("lists the access reviews `kubectl auth can-i` creates, create-only, and answers them yes", async () => {
    const agg = await c.get<{
      items: {
        metadata: { name: string };
        versions: { resources: { resource: string; verbs: string[]; scope: string }[] }[];
      }[];
    }>("/apis", AGG);
    const authz = agg.body.items.find((g) => g.metadata.name === "authorization.k8s.io");
    expect(authz?.versions[0].resources).toEqual([
      expect.objectContaining({
        resource: "selfsubjectaccessreviews",
        verbs: ["create"],
        scope: "Cluster",
      }),
      expect.objectContaining({
        resource: "selfsubjectrulesreviews",
        verbs: ["create"],
        scope: "Cluster",
      }),
    ]);
    const legacy = await c.get<{ resources: { name: string; verbs: string[] }[] }>(
      "/apis/authorization.k8s.io/v1",
    );
    expect(legacy.body.resources.map((r) => [r.name, r.verbs])).toEqual([
      ["selfsubjectaccessreviews", ["create"]],
      ["selfsubjectrulesreviews", ["create"]],
    ]);
    const SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    const review = {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: { resourceAttributes: { verb: "delete", resource: "foos", namespace: "x" } },
    };
    const yes = await c.post(SSAR, review);
    expect(yes.status).toBe(201);
    expect(yes.body).toMatchObject({ ...review, status: { allowed: true } });
    const neither = await c.post<{ message: string }>(SSAR, { ...review, spec: {} });
    expect(neither.status).toBe(422);
    expect(neither.body.message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    // Nothing is stored, so there is nothing to get or list.
    expect((await c.get(SSAR)).status).toBe(405);
    const rules = await c.post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", {
      kind: "SelfSubjectRulesReview",
      spec: { namespace: "default" },
    });
    expect(rules.status).toBe(201);
    expect(rules.body.status).toEqual({
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    });
  });

  it("answers /livez, /readyz and /healthz as apiserver's healthz package does", async () => {
    for (const endpoint of ["livez", "readyz", "healthz"]) {
      const plain = await c.get(`/${endpoint}`);
      expect([plain.status, plain.body]).toEqual([200, "ok"]);
      expect(plain.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const verbose = await c.get(`/${endpoint}?verbose`);
      expect([verbose.status, verbose.body]).toEqual([
        200,
        `[+]ping ok\n[+]store ok\n${endpoint} check passed\n`,
      ]);
    }
    const excluded = await c.get("/readyz?verbose&exclude=store&exclude=etcd");
    expect(excluded.body).toBe(
      '[+]ping ok\n[+]store excluded: ok\nwarn: some health checks cannot be excluded: no matches for "etcd"\nreadyz check passed\n',
    );
    expect((await c.get("/livez/ping")).body).toBe("ok");
    expect((await c.get("/readyz/etcd")).status).toBe(404);
  });

  it("serves OpenAPI v3 with a fieldValidation parameter on PATCH, addressed by content hash", async () => {
    const root = await c.get<{ paths: Record<string, { serverRelativeURL: string }> }>(
      "/openapi/v3",
    );
    const url = root.body.paths["apis/samplecontroller.k8s.io/v1alpha1"].serverRelativeURL;
    expect(url).toMatch(/\?hash=[0-9A-F]{64}$/);
    const doc = await c.get<{
      paths: Record<
        string,
        { patch?: { parameters: { name: string }[]; "x-kubernetes-group-version-kind": unknown } }
      >;
    }>(url);
    const item =
      doc.body.paths["/apis/samplecontroller.k8s.io/v1alpha1/namespaces/{namespace}/foos/{name}"];
    expect(item.patch?.["x-kubernetes-group-version-kind"]).toEqual({
      group: "samplecontroller.k8s.io",
      version: "v1alpha1",
      kind: "Foo",
    });
    expect(item.patch?.parameters.map((p) => p.name)).toContain("fieldValidation");
    expect((await c.get("/openapi/v2")).status).toBe(404);
  });

  it("refuses requests from foreign browser origins", async () => {
    const r = await fetch(`${server.url}/version`, { headers: { Origin: "https://evil.example" } });
    expect(r.status).toBe(403);
  });
});
