/**
 * A Foo CRD whose schema carries what kubebuilder markers write — `default`, `nullable`,
 * `pattern`, `minLength`/`maxLength`, `minItems`/`maxItems`, `exclusiveMinimum`/`exclusiveMaximum`
 * — governs Foos as on a cluster: defaults filled in on create, update and patch and as objects
 * are read back; each rejection with the reason and message a cluster answers. Over real HTTP,
 * with the real kubectl and client-node's informers.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FOO_CRD, startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import type { JsonSchema } from "./resources/schema.ts";
import { FOOS, FOO_TYPE, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.samplecontroller.k8s.io";
const CRD_YAML = fileURLToPath(new URL("../../../public/manifests/crd.yaml", import.meta.url));

/** What kubebuilder writes for `// +kubebuilder:default=…`, `+kubebuilder:validation:…`. */
const SPEC: JsonSchema = {
  type: "object",
  default: {},
  properties: {
    deploymentName: {
      type: "string",
      pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
      minLength: 3,
      maxLength: 12,
    },
    replicas: {
      type: "integer",
      default: 1,
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    },
    mode: { type: "string", default: "fast", enum: ["fast", "safe"] },
    note: { type: "string", nullable: true },
    title: { type: "string", maxLength: 3 },
    ratio: { type: "number", maximum: 2 },
    ports: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: {
        type: "object",
        properties: {
          name: { type: "string" },
          port: { type: "integer", default: 80 },
        },
      },
    },
    limits: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: { max: { type: "integer", default: 10 } },
      },
    },
  },
};

type Crd = typeof FOO_CRD;

async function crdYaml(): Promise<Crd> {
  return parse(await readFile(CRD_YAML, "utf8")) as Crd;
}

/** crd.yaml with SPEC for a Foo's spec (its status: availableReplicas only). */
async function keywordCrd(): Promise<Crd> {
  const crd = await crdYaml();
  crd.spec.versions[0]!.schema.openAPIV3Schema = {
    type: "object",
    properties: {
      spec: SPEC,
      status: {
        type: "object",
        properties: { availableReplicas: { type: "integer" } },
      },
    },
  };
  return crd;
}

const foo = (name: string, spec?: Record<string, unknown>) => ({
  ...FOO_TYPE,
  metadata: { name },
  ...(spec === undefined ? {} : { spec }),
});

let server: ApiServer;
let c: RawClient;

/** Applies `crd` over the Foo CRD (a PUT, as a client's update). */
async function putCrd(crd: Crd): Promise<void> {
  const r = await c.put(CRD, crd);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

beforeAll(async () => {
  server = await startApiServer({ garbageCollectionDelayMs: 1 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());
afterEach(async () => {
  // Each test starts with no Foo and crd.yaml's CRD.
  await c.delete(FOOS);
  await eventually(async () => (await c.get<{ items: unknown[] }>(FOOS)).body.items.length === 0);
  await putCrd(await crdYaml());
});

describe("defaults", () => {
  beforeEach(async () => putCrd(await keywordCrd()));

  it("fill a created Foo's missing fields: a defaulted parent's children too, nothing under an absent parent", async () => {
    const bare = await c.post<KObj>(FOOS, foo("bare"));
    expect([bare.status, bare.body.spec]).toEqual([201, { replicas: 1, mode: "fast" }]);
    const nested = await c.post<KObj>(
      FOOS,
      foo("nested", {
        replicas: 3,
        ports: [{ name: "http" }, { name: "admin", port: 81 }],
        limits: { cpu: {}, memory: { max: 4 } },
      }),
    );
    expect([nested.status, nested.body.spec]).toEqual([
      201,
      {
        replicas: 3,
        mode: "fast",
        ports: [
          { name: "http", port: 80 },
          { name: "admin", port: 81 },
        ],
        limits: { cpu: { max: 10 }, memory: { max: 4 } },
      },
    ]);
    // What was stored, not only answered.
    expect((await c.get<KObj>(`${FOOS}/nested`)).body.spec).toEqual(nested.body.spec);
  });

  it("a null the schema does not allow takes the default or goes; a nullable null stays", async () => {
    const r = await c.post<KObj>(
      FOOS,
      foo("nulls", {
        mode: null,
        note: null,
        deploymentName: null,
        ratio: null,
      }),
    );
    expect([r.status, r.body.spec]).toEqual([201, { mode: "fast", note: null, replicas: 1 }]);
    // An array keeps its items: a null one the items' schema refuses is invalid.
    const item = await c.post(FOOS, foo("null-item", { ports: [null] }));
    expect([item.status, item.body.message]).toEqual([
      422,
      'Foo.samplecontroller.k8s.io "null-item" is invalid: spec.ports[0]: Invalid value: "null": spec.ports[0] in body must be of type object: "null"',
    ]);
  });

  it("fill in what an update or a patch leaves out", async () => {
    await c.post(FOOS, foo("edited", { mode: "safe", replicas: 4 }));
    const got = (await c.get<KObj>(`${FOOS}/edited`)).body;
    const put = await c.put<KObj>(`${FOOS}/edited`, {
      ...got,
      spec: { replicas: 4 },
    });
    expect([put.status, put.body.spec]).toEqual([200, { replicas: 4, mode: "fast" }]);
    const merge = await c.patch<KObj>(`${FOOS}/edited`, {
      spec: { replicas: null },
    });
    expect([merge.status, merge.body.spec]).toEqual([200, { mode: "fast", replicas: 1 }]);
    const json = await c.patch<KObj>(
      `${FOOS}/edited`,
      [{ op: "remove", path: "/spec" }],
      "application/json-patch+json",
    );
    expect([json.status, json.body.spec]).toEqual([200, { replicas: 1, mode: "fast" }]);
  });
});

describe("a Foo stored before its CRD gained a default", () => {
  it("reads back defaulted and pruned by the CRD as it is now, same resourceVersion, until a write stores it so", async () => {
    const before = await c.createFoo("old", 2);
    const status = await c.put<KObj>(`${FOOS}/old/status`, {
      ...before,
      status: { availableReplicas: 2, lastSyncedAt: "then" },
    });
    expect(status.status).toBe(200);
    const rv = status.body.metadata.resourceVersion;
    await putCrd(await keywordCrd());
    const read = (await c.get<KObj>(`${FOOS}/old`)).body;
    expect([read.metadata.resourceVersion, read.spec, read.status]).toEqual([
      rv,
      { deploymentName: "old", replicas: 2, mode: "fast" },
      { availableReplicas: 2 },
    ]);
    const listed = (await c.get<{ items: KObj[] }>(FOOS)).body.items;
    expect(listed.map((o) => [o.metadata.resourceVersion, o.spec])).toEqual([[rv, read.spec]]);
    const w = await c.watch(`${FOOS}?watch=true`);
    const [added] = await w.until((events) => events.length > 0);
    w.close();
    expect([added?.type, added?.object.metadata.resourceVersion, added?.object.spec]).toEqual([
      "ADDED",
      rv,
      read.spec,
    ]);
    // Writing back what was read stores the default: a write, as on a cluster (etcd compares
    // bytes); the same write again changes nothing.
    const stored = await c.put<KObj>(`${FOOS}/old`, read);
    expect(stored.status).toBe(200);
    expect(stored.body.metadata.resourceVersion).not.toBe(rv);
    expect(stored.body.metadata.generation).toBe(read.metadata.generation);
    const again = await c.put<KObj>(`${FOOS}/old`, stored.body);
    expect(again.body.metadata.resourceVersion).toBe(stored.body.metadata.resourceVersion);
  });
});

describe("value keywords", () => {
  beforeEach(async () => putCrd(await keywordCrd()));

  const invalid = (field: string, detail: string) =>
    `Foo.samplecontroller.k8s.io "f" is invalid: ${field}: ${detail}`;

  it("refuse what a cluster refuses, with its reason and message, and accept each bound", async () => {
    for (const [spec, reason, message] of [
      [
        { deploymentName: "My-App" },
        "FieldValueInvalid",
        invalid(
          "spec.deploymentName",
          `Invalid value: "My-App": spec.deploymentName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'`,
        ),
      ],
      [
        { deploymentName: "ab" },
        "FieldValueInvalid",
        invalid(
          "spec.deploymentName",
          'Invalid value: "ab": spec.deploymentName in body should be at least 3 chars long',
        ),
      ],
      [
        { deploymentName: "abcdefghijklm" },
        "FieldValueTooLong",
        invalid("spec.deploymentName", "Too long: may not be more than 12 bytes"),
      ],
      // Characters, as Go counts runes: four emoji are eight UTF-16 units, four characters.
      [
        { title: "😀😀😀😀" },
        "FieldValueTooLong",
        invalid("spec.title", "Too long: may not be more than 3 bytes"),
      ],
      [
        { replicas: 0 },
        "FieldValueInvalid",
        invalid(
          "spec.replicas",
          "Invalid value: 0: spec.replicas in body should be greater than 0",
        ),
      ],
      [
        { replicas: 10 },
        "FieldValueInvalid",
        invalid("spec.replicas", "Invalid value: 10: spec.replicas in body should be less than 10"),
      ],
      [
        { ratio: 2.5 },
        "FieldValueInvalid",
        invalid(
          "spec.ratio",
          "Invalid value: 2.5: spec.ratio in body should be less than or equal to 2",
        ),
      ],
      [
        { ports: [] },
        "FieldValueInvalid",
        invalid("spec.ports", "Invalid value: 0: spec.ports in body should have at least 1 items"),
      ],
      [
        { ports: [{}, {}, {}] },
        "FieldValueTooMany",
        invalid("spec.ports", "Too many: 3: must have at most 2 items"),
      ],
      [
        { mode: "slow" },
        "FieldValueNotSupported",
        invalid("spec.mode", 'Unsupported value: "slow": supported values: "fast", "safe"'),
      ],
    ] as const) {
      const r = await c.post<{
        message: string;
        details: { causes: { reason: string }[] };
      }>(FOOS, foo("f", spec));
      expect([r.status, r.body.message, r.body.details?.causes?.map((x) => x.reason)]).toEqual([
        422,
        message,
        [reason],
      ]);
    }
    // Each bound itself is allowed; a length counts characters.
    const spec = {
      deploymentName: "abcdefghijkl",
      replicas: 9,
      title: "é😀a",
      ratio: 2,
      ports: [{}, {}],
    };
    const r = await c.post<KObj>(FOOS, foo("edge", spec));
    expect([r.status, r.body.spec]).toEqual([
      201,
      { ...spec, mode: "fast", ports: [{ port: 80 }, { port: 80 }] },
    ]);
    const low = await c.post<KObj>(FOOS, foo("low", { deploymentName: "abc", replicas: 1 }));
    expect(low.status).toBe(201);
  });
});

const kubectlBin = findDefaultKubectl();

describe.skipIf(!kubectlBin)("kubectl against the keyword CRD", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectlBin!, server));
  });
  afterAll(() => cleanup());

  it("apply fills in the defaults, get shows them, and each refusal prints as on a cluster", async () => {
    expect(await k.run("apply", "-f", await k.manifest("crd.yaml", await keywordCrd()))).toBe(
      "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io configured\n",
    );
    const web = await k.manifest("web.yaml", foo("web", { deploymentName: "web" }));
    expect(await k.run("apply", "-f", web)).toBe("foo.samplecontroller.k8s.io/web created\n");
    expect(await k.run("get", "foo", "web", "-o", "jsonpath={.spec}")).toBe(
      '{"deploymentName":"web","mode":"fast","replicas":1}',
    );
    // Applied again unchanged: the defaults are the server's, kubectl's patch leaves them.
    expect(await k.run("apply", "-f", web)).toBe("foo.samplecontroller.k8s.io/web unchanged\n");

    const refused = async (name: string, spec: Record<string, unknown>) =>
      k.run("apply", "-f", await k.manifest(`${name}.yaml`, foo(name, spec))).then(
        () => "",
        (err: Error) => err.message,
      );
    expect(await refused("pattern", { deploymentName: "My-App" })).toContain(
      `The Foo "pattern" is invalid: spec.deploymentName: Invalid value: "My-App": spec.deploymentName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'\n`,
    );
    expect(await refused("short", { deploymentName: "ab" })).toContain(
      'The Foo "short" is invalid: spec.deploymentName: Invalid value: "ab": spec.deploymentName in body should be at least 3 chars long\n',
    );
    expect(await refused("long", { deploymentName: "abcdefghijklm" })).toContain(
      'The Foo "long" is invalid: spec.deploymentName: Too long: may not be more than 12 bytes\n',
    );
    expect(await refused("zero", { replicas: 0 })).toContain(
      'The Foo "zero" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than 0\n',
    );
    expect(await refused("no-ports", { ports: [] })).toContain(
      'The Foo "no-ports" is invalid: spec.ports: Invalid value: 0: spec.ports in body should have at least 1 items\n',
    );
    expect(await refused("many-ports", { ports: [{}, {}, {}] })).toContain(
      'The Foo "many-ports" is invalid: spec.ports: Too many: 3: must have at most 2 items\n',
    );
    // Two at once: kubectl lists the causes.
    expect(await refused("both", { deploymentName: "ab", replicas: 10 })).toContain(
      'The Foo "both" is invalid: \n* spec.deploymentName: Invalid value: "ab": spec.deploymentName in body should be at least 3 chars long\n* spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10\n',
    );
    // An edit (kubectl's merge patch) is judged the same.
    const edited = await k.manifest(
      "web-10.yaml",
      foo("web", { deploymentName: "web", replicas: 10 }),
    );
    await expect(k.run("apply", "-f", edited)).rejects.toThrow(
      `failed: The Foo "web" is invalid: spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10\n`,
    );
  });
});

describe("client-node", () => {
  const GROUP = "samplecontroller.k8s.io";
  const VERSION = "v1alpha1";
  type Foo = k8s.KubernetesObject & { spec?: Record<string, unknown> };

  it("an informer sees the defaults: on a Foo created without them, and on one stored before the CRD had them", async () => {
    await c.createFoo("earlier", 2);
    await putCrd(await keywordCrd());
    const kc = new k8s.KubeConfig();
    kc.loadFromString(server.kubeconfigYaml());
    const co = kc.makeApiClient(k8s.CustomObjectsApi);
    const seen = new Map<string, unknown>();
    const informer = k8s.makeInformer<Foo>(
      kc,
      `/apis/${GROUP}/${VERSION}/namespaces/default/foos`,
      () =>
        co.listNamespacedCustomObject({
          group: GROUP,
          version: VERSION,
          namespace: "default",
          plural: "foos",
        }) as Promise<k8s.KubernetesListObject<Foo>>,
    );
    informer.on(k8s.ADD, (obj) => seen.set(obj.metadata?.name ?? "", obj.spec));
    await informer.start();
    const created = (await co.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: "default",
      plural: "foos",
      body: foo("later", { deploymentName: "later" }),
    })) as Foo;
    await eventually(() => seen.has("later"));
    await informer.stop();
    expect(created.spec).toEqual({
      deploymentName: "later",
      replicas: 1,
      mode: "fast",
    });
    expect(Object.fromEntries(seen)).toEqual({
      earlier: { deploymentName: "earlier", replicas: 2, mode: "fast" },
      later: { deploymentName: "later", replicas: 1, mode: "fast" },
    });
  });
});
