/**
 * A Foo CRD whose schema carries what kubebuilder markers write — `pattern`,
 * `minLength`/`maxLength`, `minItems`/`maxItems`, `exclusiveMinimum`/`exclusiveMaximum` — governs
 * Foos as on a cluster: each rejection with the reason and message a cluster answers. Over real
 * HTTP and with the real kubectl.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { FOO_CRD, startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import type { JsonSchema } from "./resources/schema.ts";
import { FOOS, FOO_TYPE, RawClient, eventually, type KObj } from "./testing/raw-client.ts";

const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.samplecontroller.k8s.io";
const CRD_YAML = fileURLToPath(new URL("../../../public/manifests/crd.yaml", import.meta.url));

/** What kubebuilder writes for `// +kubebuilder:validation:…` markers. */
const SPEC: JsonSchema = {
  type: "object",
  properties: {
    deploymentName: {
      type: "string",
      pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
      minLength: 3,
      maxLength: 12,
    },
    replicas: {
      type: "integer",
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    },
    mode: { type: "string", enum: ["fast", "safe"] },
    title: { type: "string", maxLength: 3 },
    ratio: { type: "number", maximum: 2 },
    ports: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: {
        type: "object",
        properties: { name: { type: "string" }, port: { type: "integer" } },
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
      status: { type: "object", properties: { availableReplicas: { type: "integer" } } },
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
      const r = await c.post<{ message: string; details: { causes: { reason: string }[] } }>(
        FOOS,
        foo("f", spec),
      );
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
    expect([r.status, r.body.spec]).toEqual([201, spec]);
    const low = await c.post<KObj>(FOOS, foo("low", { deploymentName: "abc", replicas: 1 }));
    expect(low.status).toBe(201);
  });
});

const kubectlBin = findDefaultKubectl();

describe.skipIf(!kubectlBin)("kubectl against the keyword CRD", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  let home: string;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectlBin!, server));
    home = k.env.HOME ?? "";
  });
  afterAll(() => cleanup());

  async function manifest(name: string, obj: unknown): Promise<string> {
    const path = join(home, name);
    await writeFile(path, stringify(obj));
    return path;
  }

  it("prints each refusal as on a cluster", async () => {
    expect(await k.run("apply", "-f", await manifest("crd.yaml", await keywordCrd()))).toBe(
      "customresourcedefinition.apiextensions.k8s.io/foos.samplecontroller.k8s.io configured\n",
    );
    const web = await manifest("web.yaml", foo("web", { deploymentName: "web" }));
    expect(await k.run("apply", "-f", web)).toBe("foo.samplecontroller.k8s.io/web created\n");

    const refused = async (name: string, spec: Record<string, unknown>) =>
      k.run("apply", "-f", await manifest(`${name}.yaml`, foo(name, spec))).then(
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
    const edited = await manifest(
      "web-10.yaml",
      foo("web", { deploymentName: "web", replicas: 10 }),
    );
    await expect(k.run("apply", "-f", edited)).rejects.toThrow(
      `failed: The Foo "web" is invalid: spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10\n`,
    );
  });
});
