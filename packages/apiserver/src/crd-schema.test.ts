/**
 * Foos are pruned and validated by the schema of their CRD as it is, as on a real API server
 * (apiextensions-apiserver builds each CRD's storage from its spec.versions[].schema): the CRD
 * deleted and created again with another schema, or applied again with another, governs the
 * next write. Over real HTTP, and with the real kubectl.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FOO_CRD, startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import type { JsonSchema } from "./resources/schema.ts";
import { FOOS, FOO_TYPE, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const CRD = `${CRDS}/foos.samplecontroller.k8s.io`;
const CRD_YAML = fileURLToPath(new URL("../../../public/manifests/crd.yaml", import.meta.url));

let server: ApiServer;
let c: RawClient;

type Crd = typeof FOO_CRD;

async function crdYaml(): Promise<Crd> {
  return parse(await readFile(CRD_YAML, "utf8")) as Crd;
}

/**
 * A changed copy's spec: no deploymentName, replicas 1–3 and required, a color of two, labels a
 * map of strings.
 */
const CHANGED_SPEC: JsonSchema = {
  type: "object",
  required: ["replicas"],
  properties: {
    replicas: { type: "integer", minimum: 1, maximum: 3 },
    color: { type: "string", enum: ["red", "blue"] },
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
};

/** crd.yaml with another schema for a Foo's spec (its status: availableReplicas only). */
async function changedCrd(spec: unknown = CHANGED_SPEC): Promise<Crd> {
  const crd = await crdYaml();
  crd.spec.versions[0]!.schema.openAPIV3Schema = {
    type: "object",
    properties: {
      spec: spec as JsonSchema,
      status: { type: "object", properties: { availableReplicas: { type: "integer" } } },
    },
  };
  return crd;
}

/** Deletes the CRD and waits until it is gone (its Foos deleted first). */
async function deleteCrd(): Promise<void> {
  expect((await c.delete(CRD)).status).toBe(200);
  await eventually(async () => (await c.get(CRD)).status === 404);
}

const foo = (name: string, spec: Record<string, unknown>) => ({
  ...FOO_TYPE,
  metadata: { name },
  spec,
});

beforeAll(async () => {
  server = await startApiServer({ garbageCollectionDelayMs: 1 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());
afterEach(async () => {
  // Each test starts with crd.yaml's CRD.
  if ((await c.get(CRD)).status !== 404) await deleteCrd();
  expect((await c.post(CRDS, await crdYaml())).status).toBe(201);
});

it("public/manifests/crd.yaml is the CRD the server starts with (lastSyncedAt included)", async () => {
  expect(await crdYaml()).toEqual(FOO_CRD);
});

describe("a Foo CRD deleted and created again with another schema", () => {
  it("prunes what the new schema lacks and keeps what it declares, a map's entries too", async () => {
    await c.createFoo("before", 2);
    await deleteCrd();
    expect((await c.post(CRDS, await changedCrd())).status).toBe(201);
    const spec = { deploymentName: "x", replicas: 2, color: "red", labels: { a: "b" } };
    const lax = await c.post<KObj>(FOOS, foo("after", spec));
    expect([lax.status, lax.body.spec]).toEqual([
      201,
      { replicas: 2, color: "red", labels: { a: "b" } },
    ]);
    expect(lax.headers.get("warning")).toBe('299 - "unknown field \\"spec.deploymentName\\""');
    const strict = await c.post(`${FOOS}?fieldValidation=Strict`, foo("strict", spec));
    expect([strict.status, strict.body.message]).toEqual([
      400,
      'Foo in version "v1alpha1" cannot be handled as a Foo: strict decoding error: unknown field "spec.deploymentName"',
    ]);
    // The status subresource's writes are pruned by it too.
    const status = await c.put<KObj>(`${FOOS}/after/status`, {
      ...lax.body,
      status: { availableReplicas: 2, lastSyncedAt: "now" },
    });
    expect([status.status, status.body.status]).toEqual([200, { availableReplicas: 2 }]);
  });

  it("refuses what the new schema forbids (422), and accepts it again once crd.yaml is back", async () => {
    await deleteCrd();
    expect((await c.post(CRDS, await changedCrd())).status).toBe(201);
    for (const [spec, message] of [
      [
        { replicas: 5 },
        'Foo.samplecontroller.k8s.io "f" is invalid: spec.replicas: Invalid value: 5: spec.replicas in body should be less than or equal to 3',
      ],
      [
        { replicas: 1, color: "green" },
        'Foo.samplecontroller.k8s.io "f" is invalid: spec.color: Unsupported value: "green": supported values: "red", "blue"',
      ],
      [{}, 'Foo.samplecontroller.k8s.io "f" is invalid: spec.replicas: Required value'],
      [
        { replicas: 1, labels: { a: true } },
        'Foo.samplecontroller.k8s.io "f" is invalid: spec.labels.a: Invalid value: "boolean": spec.labels.a in body must be of type string: "boolean"',
      ],
      // A wrong type is named by the value's JSON type, not the value, as a cluster does.
      [
        { replicas: "three" },
        'Foo.samplecontroller.k8s.io "f" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      ],
      [
        { replicas: 1.5 },
        'Foo.samplecontroller.k8s.io "f" is invalid: spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      ],
    ] as const) {
      const r = await c.post(FOOS, foo("f", spec));
      expect([r.status, r.body.message]).toEqual([422, message]);
    }
    await deleteCrd();
    expect((await c.post(CRDS, await crdYaml())).status).toBe(201);
    const r = await c.post<KObj>(FOOS, foo("f", { deploymentName: "f", replicas: 5 }));
    expect([r.status, r.body.spec]).toEqual([201, { deploymentName: "f", replicas: 5 }]);
  });

  it("an object schema that declares no field keeps none of them", async () => {
    await deleteCrd();
    expect((await c.post(CRDS, await changedCrd({ type: "object" }))).status).toBe(201);
    const r = await c.post<KObj>(FOOS, foo("bare", { deploymentName: "bare", replicas: 1 }));
    expect([r.status, r.body.spec]).toEqual([201, {}]);
  });

  it("x-kubernetes-preserve-unknown-fields keeps its object's undeclared fields, and prunes and validates the declared ones", async () => {
    await deleteCrd();
    const preserving = {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: {
        size: { type: "integer" },
        tags: { type: "object", properties: { team: { type: "string" } } },
      },
    };
    expect((await c.post(CRDS, await changedCrd(preserving))).status).toBe(201);
    const spec = { extra: { any: 1 }, size: 2, tags: { team: "a", zone: "b", app: "c" } };
    const r = await c.post<KObj>(FOOS, foo("kept", spec));
    expect([r.status, r.body.spec]).toEqual([
      201,
      { extra: { any: 1 }, size: 2, tags: { team: "a" } },
    ]);
    // The pruned paths in a cluster's order: sorted.
    expect(r.headers.get("warning")).toBe(
      '299 - "unknown field \\"spec.tags.app\\"", 299 - "unknown field \\"spec.tags.zone\\""',
    );
    const bad = await c.post(FOOS, foo("bad", { size: "two" }));
    expect([bad.status, bad.body.message]).toEqual([
      422,
      'Foo.samplecontroller.k8s.io "bad" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    ]);
  });

  it("ignores a keyword of the wrong JSON type (a cluster refuses such a CRD; this one does not check it)", async () => {
    await deleteCrd();
    const odd = {
      type: "object",
      required: "replicas",
      properties: {
        replicas: { type: "integer", minimum: "1", enum: 5 },
        tags: { type: "array", items: "string" },
      },
    };
    expect((await c.post(CRDS, await changedCrd(odd))).status).toBe(201);
    const r = await c.post<KObj>(FOOS, foo("odd", { replicas: 0, tags: ["a"] }));
    expect([r.status, r.body.spec]).toEqual([201, { replicas: 0, tags: ["a"] }]);
  });
});

const kubectlBin = findDefaultKubectl();

describe.skipIf(!kubectlBin)("kubectl: apply crd.yaml, delete it, apply a changed copy", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectlBin!, server));
  });
  afterAll(() => cleanup());

  it("a Foo with a field the new schema lacks or forbids fails as on a cluster; crd.yaml applied again takes it back", async () => {
    const changed = await k.manifest("changed-crd.yaml", await changedCrd());
    const example = await k.manifest(
      "foo.yaml",
      foo("example-foo", { deploymentName: "example-foo", replicas: 1 }),
    );
    const tooMany = await k.manifest("too-many.yaml", foo("too-many", { replicas: 5 }));
    expect(await k.run("apply", "-f", CRD_YAML)).toMatch(/foos.samplecontroller.k8s.io \w+\n$/);
    expect(await k.run("delete", "crd", "foos.samplecontroller.k8s.io")).toContain("deleted");
    expect(await k.run("apply", "-f", changed)).toBe(
      "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io created\n",
    );
    // kubectl explain reads the new schema.
    const explained = await k.run("explain", "foo.spec");
    expect(explained).toMatch(/replicas\s+<integer> -required-/);
    expect(explained).toMatch(/color\s+<string>/);
    expect(explained).toMatch(/labels\s+<map\[string\]string>/);
    expect(explained).not.toContain("deploymentName");
    // kubectl asks for strict field validation: the field the schema lacks is refused …
    await expect(k.run("apply", "-f", example)).rejects.toThrow(
      /Error from server \(BadRequest\): error when creating ".*foo.yaml": Foo in version "v1alpha1" cannot be handled as a Foo: strict decoding error: unknown field "spec.deploymentName"/,
    );
    // … and without it, pruned.
    expect(await k.run("apply", "--validate=false", "-f", example)).toBe(
      "foo.samplecontroller.k8s.io/example-foo created\n",
    );
    expect(await k.run("get", "foo", "example-foo", "-o", "jsonpath={.spec}")).toBe(
      '{"replicas":1}',
    );
    await expect(k.run("apply", "-f", tooMany)).rejects.toThrow(
      /The Foo "too-many" is invalid: spec.replicas: Invalid value: 5: spec.replicas in body should be less than or equal to 3/,
    );
    // Applied again over the changed one (not deleted), crd.yaml's schema governs at once.
    expect(await k.run("apply", "-f", CRD_YAML)).toBe(
      "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io configured\n",
    );
    expect(await k.run("apply", "-f", tooMany)).toBe(
      "foo.samplecontroller.k8s.io/too-many created\n",
    );
    expect(await k.run("explain", "foo.spec")).toMatch(/deploymentName\s+<string>/);
  });
});
