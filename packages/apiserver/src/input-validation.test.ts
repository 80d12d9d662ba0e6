/**
 * Bad request bodies get what a real API server answers, over real HTTP: a metadata field of
 * the wrong JSON type is a 400 naming the Go field and type (never stored coerced, never a
 * 500), a custom resource without kind or apiVersion is a 400 (a built-in type takes both from
 * the URL), and nesting past the limit is a 400 instead of a stack overflow. Nothing is stored
 * by a refused request, and the server answers the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { MAX_DEPTH } from "./resources/decode.ts";
import {
  DEPLOYMENTS,
  FOO_TYPE,
  FOOS,
  RawClient,
  eventually,
  deploymentBody,
  type KObj,
} from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

interface StatusBody {
  kind: string;
  reason: string;
  message: string;
  code: number;
}

const names = async (path: string) =>
  (await c.get<{ items: KObj[] }>(path)).body.items.map((i) => i.metadata.name);

function nested(depth: number): string {
  return '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
}

describe("metadata of the wrong JSON type", () => {
  // [metadata, the decode error after "cannot be handled as a Foo: "] for a custom resource,
  // whose ObjectMeta is decoded on its own (field paths start at ObjectMeta).
  const cases: [Record<string, unknown> | string, string][] = [
    [
      { name: 5 },
      "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string",
    ],
    [
      { name: "m", labels: "app=x" },
      "json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string",
    ],
    [
      { name: "m", labels: { app: 1 } },
      "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string",
    ],
    [
      { name: "m", annotations: ["a"] },
      "json: cannot unmarshal array into Go struct field ObjectMeta.annotations of type map[string]string",
    ],
    [
      { name: "m", finalizers: "x" },
      "json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string",
    ],
    [
      { name: "m", finalizers: [true] },
      "json: cannot unmarshal bool into Go struct field ObjectMeta.finalizers of type string",
    ],
    [
      { name: "m", ownerReferences: { uid: "u" } },
      "json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference",
    ],
    [
      { name: "m", ownerReferences: [{ uid: 7 }] },
      "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type string",
    ],
    [
      { name: "m", generation: 1.5 },
      "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64",
    ],
    [
      { name: "m", creationTimestamp: 5 },
      "json: cannot unmarshal number into Go value of type string",
    ],
    ["m", "json: cannot unmarshal string into Go value of type v1.ObjectMeta"],
  ];

  it("a Foo: 400 BadRequest in the decoder's words, nothing stored", async () => {
    for (const [metadata, why] of cases) {
      const r = await c.post<StatusBody>(FOOS, { ...FOO_TYPE, metadata, spec: { replicas: 1 } });
      expect(r.status, JSON.stringify(metadata)).toBe(400);
      expect(r.body).toMatchObject({
        kind: "Status",
        reason: "BadRequest",
        code: 400,
        message: `Foo in version "v1alpha1" cannot be handled as a Foo: ${why}`,
      });
    }
    expect(await names(FOOS)).toEqual([]);
  });

  it("a Deployment: the field path from the object's root, as Go decodes a built-in type", async () => {
    const body = deploymentBody("typed");
    const r = await c.post<StatusBody>(DEPLOYMENTS, {
      ...body,
      metadata: { ...body.metadata, labels: { app: 3 } },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    );
    const spec = await c.post<StatusBody>(DEPLOYMENTS, { ...body, spec: "three replicas" });
    expect(spec.body.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec',
    );
    expect(await names(DEPLOYMENTS)).toEqual([]);
  });

  it("labels and annotations whose keys or values a cluster refuses: 422 in apimachinery's words", async () => {
    const post = (metadata: Record<string, unknown>) =>
      c.post<StatusBody>(FOOS, {
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        metadata: { name: "meta-check", ...metadata },
        spec: { replicas: 1 },
      });
    const bad = await post({ labels: { "bad key!": "x" } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      `Foo.samplecontroller.k8s.io "meta-check" is invalid: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
    expect((await post({ labels: { "x/y/z": "1" } })).status).toBe(422);
    expect((await post({ labels: { ok: "bad value" } })).status).toBe(422);
    expect((await post({ labels: { ok: "x".repeat(64) } })).status).toBe(422);
    expect((await post({ annotations: { "bad key": "1" } })).status).toBe(422);
    expect(await names(FOOS)).toEqual([]);
    // Prefixed keys, empty values and any annotation value are fine.
    const good = await post({
      labels: { "app.kubernetes.io/name": "web", empty: "" },
      annotations: { "example.com/Note": "any text, at all" },
    });
    expect(good.status).toBe(201);
  });

  it("a YAML body (Content-Type: application/yaml, as curl posts a manifest) is read as its JSON", async () => {
    const yaml = [
      "apiVersion: samplecontroller.k8s.io/v1alpha1",
      "kind: Foo",
      "metadata:",
      "  name: from-yaml",
      "spec:",
      "  deploymentName: from-yaml",
      "  replicas: 2",
    ].join("\n");
    const made = await c.request<KObj & { spec: { replicas: number } }>(
      "POST",
      FOOS,
      yaml,
      "application/yaml",
    );
    expect(made.status).toBe(201);
    expect(made.body.spec.replicas).toBe(2);
    const bad = await c.request<StatusBody>(
      "POST",
      FOOS,
      "metadata: [unclosed",
      "application/yaml",
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^couldn't get version\/kind; yaml parse error: /);
    // An alias bomb is refused by the parser, not expanded.
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
      .concat(
        Array.from({ length: 8 }, (_, i) => {
          const p = String.fromCharCode(97 + i);
          const n = String.fromCharCode(98 + i);
          return `${n}: &${n} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`;
        }),
      )
      .join("\n");
    const before = await names(FOOS);
    const refused = await c.request<StatusBody>("POST", FOOS, bomb, "application/yaml");
    expect(refused.status).toBe(400);
    expect(await names(FOOS)).toEqual(before);
    expect(before).toContain("from-yaml");
  });

  it("a Deployment's replicas that are no int32: 400 in Go's words, before validation", async () => {
    const body = deploymentBody("int32");
    for (const [replicas, said] of [
      [5_000_000_000, "number 5000000000"],
      [1.5, "number 1.5"],
      ["3", "string"],
    ] as const) {
      const r = await c.post<StatusBody>(DEPLOYMENTS, {
        ...body,
        spec: { ...body.spec, replicas },
      });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(
        `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal ${said} into Go struct field DeploymentSpec.spec.replicas of type int32`,
      );
    }
    const negative = await c.post<StatusBody>(DEPLOYMENTS, {
      ...body,
      spec: { ...body.spec, replicas: -1 },
    });
    expect(negative.status).toBe(422);
    expect(await names(DEPLOYMENTS)).toEqual([]);
  });

  it("a pod template field of the wrong JSON type: 400 naming Go's innermost struct and the path", async () => {
    const body = deploymentBody("tmpl");
    const withContainer = (
      extra: Record<string, unknown>,
      podSpec: Record<string, unknown> = {},
    ) => ({
      ...body,
      spec: {
        ...body.spec,
        template: {
          ...body.spec.template,
          spec: { containers: [{ name: "nginx", image: "nginx:1.25", ...extra }], ...podSpec },
        },
      },
    });
    const C = "spec.template.spec.containers";
    for (const [sent, why] of [
      // YAML's unquoted `name: Y` is a bool.
      [
        withContainer({ env: [{ name: true, value: "2" }] }),
        `bool into Go struct field EnvVar.${C}.env.name of type string`,
      ],
      [
        withContainer({ args: "not-a-list" }),
        `string into Go struct field Container.${C}.args of type []string`,
      ],
      [
        withContainer({ command: [1] }),
        `number into Go struct field Container.${C}.command of type string`,
      ],
      [
        withContainer({ ports: [{ containerPort: "80" }] }),
        `string into Go struct field ContainerPort.${C}.ports.containerPort of type int32`,
      ],
      [
        withContainer({ ports: [{ containerPort: 5_000_000_000 }] }),
        `number 5000000000 into Go struct field ContainerPort.${C}.ports.containerPort of type int32`,
      ],
      [
        withContainer({ image: 5 }),
        `number into Go struct field Container.${C}.image of type string`,
      ],
      [
        withContainer({ env: [{ name: "A", valueFrom: "x" }] }),
        `string into Go struct field EnvVar.${C}.env.valueFrom of type v1.EnvVarSource`,
      ],
      [
        withContainer({ resources: { limits: ["1"] } }),
        `array into Go struct field ResourceRequirements.${C}.resources.limits of type v1.ResourceList`,
      ],
      [
        withContainer({ volumeMounts: [{ name: "v", mountPath: "/v", readOnly: "yes" }] }),
        `string into Go struct field VolumeMount.${C}.volumeMounts.readOnly of type bool`,
      ],
      [
        withContainer({ imagePullPolicy: 1 }),
        `number into Go struct field Container.${C}.imagePullPolicy of type v1.PullPolicy`,
      ],
      [
        withContainer({}, { restartPolicy: false }),
        "bool into Go struct field PodSpec.spec.template.spec.restartPolicy of type v1.RestartPolicy",
      ],
      [
        withContainer({}, { nodeSelector: { disk: 1 } }),
        "number into Go struct field PodSpec.spec.template.spec.nodeSelector of type string",
      ],
      [
        withContainer({}, { terminationGracePeriodSeconds: "30" }),
        "string into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64",
      ],
      [
        withContainer({}, { volumes: ["data"] }),
        "string into Go struct field PodSpec.spec.template.spec.volumes of type v1.Volume",
      ],
      [
        withContainer({}, { initContainers: [{ name: "init", image: "busybox", args: "x" }] }),
        "string into Go struct field Container.spec.template.spec.initContainers.args of type []string",
      ],
      [
        {
          ...body,
          spec: {
            ...body.spec,
            template: { ...body.spec.template, metadata: { labels: { app: 1 } } },
          },
        },
        "number into Go struct field ObjectMeta.spec.template.metadata.labels of type string",
      ],
      [
        { ...body, spec: { ...body.spec, template: { ...body.spec.template, spec: "x" } } },
        "string into Go struct field PodTemplateSpec.spec.template.spec of type v1.PodSpec",
      ],
    ] as const) {
      const r = await c.post<StatusBody>(DEPLOYMENTS, sent);
      expect(r.status, why).toBe(400);
      expect(r.body.message).toBe(
        `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal ${why}`,
      );
    }
    expect(await names(DEPLOYMENTS)).toEqual([]);
    // The same fields with their right types are stored.
    const good = await c.post<StatusBody>(
      DEPLOYMENTS,
      withContainer(
        {
          env: [
            { name: "Y", value: "2" },
            { name: "P", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
          ],
          args: ["a"],
          ports: [{ name: "http", containerPort: 80, protocol: "TCP" }],
          resources: { limits: { cpu: "1", memory: 1000 } },
          volumeMounts: [{ name: "v", mountPath: "/v", readOnly: true }],
        },
        {
          volumes: [{ name: "v", emptyDir: {} }],
          terminationGracePeriodSeconds: 30,
          nodeSelector: {},
        },
      ),
    );
    expect(good.status).toBe(201);
    await c.delete(`${DEPLOYMENTS}/tmpl`);
    await eventually(async () => (await names(DEPLOYMENTS)).length === 0);
  });

  it("a rolling update's maxSurge or maxUnavailable that is no int32 or string: 400, unwrapped", async () => {
    const body = deploymentBody("surge");
    for (const [field, value, said] of [
      ["maxSurge", 1.5, "number 1.5"],
      ["maxUnavailable", true, "bool"],
      ["maxSurge", 5_000_000_000, "number 5000000000"],
      ["maxUnavailable", { n: 1 }, "object"],
    ] as const) {
      const r = await c.post<StatusBody>(DEPLOYMENTS, {
        ...body,
        spec: {
          ...body.spec,
          strategy: { type: "RollingUpdate", rollingUpdate: { [field]: value } },
        },
      });
      expect(r.status).toBe(400);
      // IntOrString's own UnmarshalJSON error: Go does not name the field for it.
      expect(r.body.message).toBe(
        `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal ${said} into Go value of type int32`,
      );
    }
    expect(await names(DEPLOYMENTS)).toEqual([]);
  });

  it("the same on update and patch: the stored object is left as it was", async () => {
    const foo = await c.createFoo("kept");
    const put = await c.put<StatusBody>(`${FOOS}/kept`, {
      ...foo,
      metadata: { ...foo.metadata, labels: { tier: false } },
    });
    expect(put.status).toBe(400);
    const merge = await c.patch<StatusBody>(`${FOOS}/kept`, { metadata: { annotations: 7 } });
    expect(merge.status).toBe(400);
    expect(merge.body.message).toContain("ObjectMeta.annotations of type map[string]string");
    const json = await c.patch<StatusBody>(
      `${FOOS}/kept`,
      [{ op: "add", path: "/metadata/finalizers", value: [1] }],
      "application/json-patch+json",
    );
    expect(json.status).toBe(400);
    const now = await c.get<KObj>(`${FOOS}/kept`);
    expect(now.body.metadata).toEqual(foo.metadata);
  });

  it("a null field is left out, as Go leaves it zero", async () => {
    const r = await c.post<KObj>(FOOS, {
      ...FOO_TYPE,
      metadata: { name: "nulls", labels: null, finalizers: null },
      spec: { replicas: 1 },
    });
    expect(r.status).toBe(201);
    expect(r.body.metadata).not.toHaveProperty("labels");
    expect(r.body.metadata).not.toHaveProperty("finalizers");
  });
});

describe("kind and apiVersion", () => {
  it("a Foo without kind or apiVersion is a 400; a Deployment takes both from the URL", async () => {
    const noKind = await c.post<StatusBody>(FOOS, {
      apiVersion: FOO_TYPE.apiVersion,
      metadata: { name: "no-kind" },
      spec: { replicas: 1 },
    });
    expect(noKind.status).toBe(400);
    expect(noKind.body.message).toMatch(
      /^the object provided is unrecognized \(must be of type Foo\): Object 'Kind' is missing in '\{"apiVersion":.*\}' \(\{"apiVersion":"samplecontrolle \.\.\.\)$/,
    );
    const noVersion = await c.post<StatusBody>(FOOS, {
      kind: "Foo",
      metadata: { name: "no-version" },
      spec: { replicas: 1 },
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.message).toBe(
      "the API version in the data () does not match the expected API version (samplecontroller.k8s.io/v1alpha1)",
    );
    const bare = await c.post<StatusBody>(FOOS, { metadata: { name: "bare" }, spec: {} });
    expect(bare.status).toBe(400);
    expect(await names(FOOS)).not.toContain("no-kind");

    const { apiVersion: _a, kind: _k, ...untyped } = deploymentBody("untyped");
    const d = await c.post<KObj>(DEPLOYMENTS, untyped);
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment" });
  });
});

describe("deep nesting", () => {
  it(`a body nested past ${MAX_DEPTH} levels is a 400 on create, update and patch`, async () => {
    for (const depth of [MAX_DEPTH + 1, 100_000]) {
      const body = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"deep"},"spec":${nested(depth)}}`;
      const r = await c.request<StatusBody>("POST", DEPLOYMENTS, body);
      expect(r.status, String(depth)).toBe(400);
      expect(r.body.reason).toBe("BadRequest");
      expect(r.body.message).toContain(`exceeded max depth (${MAX_DEPTH} levels of nesting)`);
      const patch = await c.request<StatusBody>(
        "PATCH",
        `${FOOS}/kept`,
        `{"spec":${nested(depth)}}`,
        "application/merge-patch+json",
      );
      expect(patch.status).toBe(400);
    }
    // A JSON patch that builds the depth out of two shallow halves.
    const half = JSON.parse(nested(MAX_DEPTH - 10)) as unknown;
    const grown = await c.patch<StatusBody>(
      `${FOOS}/kept`,
      [
        { op: "add", path: "/spec/deep", value: half },
        {
          op: "add",
          path: `/spec/deep${"/a".repeat(MAX_DEPTH - 11)}/b`,
          value: half,
        },
      ],
      "application/json-patch+json",
    );
    expect(grown.status).toBe(400);
    expect(grown.body.message).toContain("exceeded max depth");
    expect((await c.get("/version")).status).toBe(200);
  });

  it(`${MAX_DEPTH} levels are fine`, async () => {
    const body = deploymentBody("deep-ok");
    const text = JSON.stringify(body).replace('"image":', `"x":${nested(MAX_DEPTH - 8)},"image":`);
    const r = await c.request<KObj>("POST", DEPLOYMENTS, text);
    expect(r.status).toBe(201);
    const patched = await c.patch<KObj>(`${DEPLOYMENTS}/deep-ok`, {
      metadata: { labels: { a: "b" } },
    });
    expect(patched.status).toBe(200);
  });
});
