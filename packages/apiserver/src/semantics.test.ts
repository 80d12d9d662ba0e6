/**
 * Kubernetes object semantics, checked over real HTTP against a server on an ephemeral port:
 * resourceVersion, generation, status isolation, optimistic concurrency, no-op updates, creates,
 * validation, error shapes, garbage collection, selectors, namespaces and events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import {
  DEPLOYMENTS,
  FOO_TYPE,
  FOOS,
  RawClient,
  deploymentBody,
  eventually,
  type KObj,
  type StatusBody,
} from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({
    deploymentReadyDelayMs: 40,
    deploymentStepDelayMs: 5,
    garbageCollectionDelayMs: 1,
  });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const rv = (o: KObj) => BigInt(o.metadata.resourceVersion);

/** An owner reference to `foo`. */
const fooRef = (foo: KObj) => ({
  apiVersion: "samplecontroller.k8s.io/v1alpha1",
  kind: "Foo",
  name: foo.metadata.name,
  uid: foo.metadata.uid,
});

describe("create", () => {
  it("sets uid, creationTimestamp, generation 1 and strips a Foo's status", async () => {
    const foo = await c.createFoo("create-a", 2, { status: { availableReplicas: 7 } });
    expect(foo.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(foo.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(foo.metadata.generation).toBe(1);
    expect(foo.metadata.namespace).toBe("default");
    expect(foo.status).toBeUndefined();
    expect(foo.apiVersion).toBe("samplecontroller.k8s.io/v1alpha1");
  });

  it("answers 409 AlreadyExists with the real Status", async () => {
    await c.createFoo("create-dup");
    const r = await c.post(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "create-dup" },
      spec: { replicas: 1 },
    });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'foos.samplecontroller.k8s.io "create-dup" already exists',
      reason: "AlreadyExists",
      details: { name: "create-dup", group: "samplecontroller.k8s.io", kind: "foos" },
      code: 409,
    });
  });

  it("rejects spec.replicas outside 1..10 with 422 Invalid", async () => {
    const r = await c.post<{
      message: string;
      reason: string;
      code: number;
      details: { causes: unknown[]; kind: string };
    }>(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "too-many" },
      spec: { deploymentName: "x", replicas: 11 },
    });
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("Invalid");
    expect(r.body.message).toBe(
      'Foo.samplecontroller.k8s.io "too-many" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    );
    expect(r.body.details.kind).toBe("Foo");
    expect(r.body.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        message: "Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        field: "spec.replicas",
      },
    ]);
    const zero = await c.post<{ message: string }>(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "too-few" },
      spec: { replicas: 0 },
    });
    expect(zero.status).toBe(422);
    expect(zero.body.message).toContain("should be greater than or equal to 1");
  });

  it("prunes undeclared fields, or refuses them with fieldValidation=Strict", async () => {
    const lax = await c.post<KObj>(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "pruned" },
      spec: { replicas: 1, bogus: true },
    });
    expect(lax.status).toBe(201);
    expect(lax.body.spec).toEqual({ replicas: 1 });
    const strict = await c.post<{ message: string }>(`${FOOS}?fieldValidation=Strict`, {
      ...FOO_TYPE,
      metadata: { name: "strict" },
      spec: { replicas: 1, bogus: true },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.bogus"');
  });

  it("drops emptied labels, annotations and finalizers, as Go's omitempty does", async () => {
    await c.createFoo("empty-maps", 1, {
      metadata: { name: "empty-maps", labels: { a: "b" }, annotations: { x: "y" }, finalizers: [] },
    });
    const r = await c.patch<KObj>(`${FOOS}/empty-maps`, {
      metadata: { labels: { a: null }, annotations: { x: null } },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.metadata)).not.toContain("labels");
    expect(Object.keys(r.body.metadata)).not.toContain("annotations");
    expect(Object.keys(r.body.metadata)).not.toContain("finalizers");
  });

  it("fieldValidation: unknown fields of built-in types and of any metadata", async () => {
    const NAMESPACES = "/api/v1/namespaces";
    const body = deploymentBody("fv-deploy") as { spec: Record<string, unknown> };
    const typo = { ...body, spec: { ...body.spec, replica: 4, bogus: true } };
    const strict = await c.post<{ message: string; reason: string }>(
      `${DEPLOYMENTS}?fieldValidation=Strict`,
      typo,
    );
    expect(strict.status).toBe(400);
    expect(strict.body.reason).toBe("BadRequest");
    expect(strict.body.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.bogus"',
    );
    expect((await c.get(`${DEPLOYMENTS}/fv-deploy`)).status).toBe(404);
    // The Pod template's metadata is an ObjectMeta too; its spec is not checked.
    const tmpl = await c.post<{ message: string }>(`${DEPLOYMENTS}?fieldValidation=Strict`, {
      ...body,
      spec: {
        ...body.spec,
        template: {
          metadata: { lables: { app: "x" }, labels: { app: "fv-deploy" } },
          spec: { containers: [{ name: "n", image: "nginx" }], anything: 1 },
        },
      },
    });
    expect(tmpl.body.message).toMatch(
      /strict decoding error: unknown field "spec\.template\.metadata\.lables"$/,
    );
    // Warn (also the default): stored without them, each named in a Warning header.
    const warned = await c.post<KObj>(DEPLOYMENTS, typo);
    expect(warned.status).toBe(201);
    expect(warned.headers.get("warning")).toBe(
      '299 - "unknown field \\"spec.replica\\"", 299 - "unknown field \\"spec.bogus\\""',
    );
    expect(warned.body.spec?.replica).toBeUndefined();
    expect(warned.body.spec?.bogus).toBeUndefined();
    expect(warned.body.spec?.replicas).toBe(1);
    // A patch is checked as the object it makes.
    const patched = await c.patch<{ message: string }>(
      `${DEPLOYMENTS}/fv-deploy?fieldValidation=Strict`,
      { spec: { replica: 4 } },
    );
    expect(patched.status).toBe(400);
    expect(patched.body.message).toContain('strict decoding error: unknown field "spec.replica"');

    // metadata, every kind: a Namespace (with its spec), a Foo (with its schema's fields).
    const ns = { metadata: { name: "fv-ns", lables: { a: "b" } }, spec: { bogus: 1 } };
    const nsStrict = await c.post<{ message: string }>(`${NAMESPACES}?fieldValidation=Strict`, ns);
    expect(nsStrict.status).toBe(400);
    expect(nsStrict.body.message).toBe(
      'Namespace in version "v1" cannot be handled as a Namespace: strict decoding error: unknown field "metadata.lables", unknown field "spec.bogus"',
    );
    const ignored = await c.post<KObj>(`${NAMESPACES}?fieldValidation=Ignore`, ns);
    expect(ignored.status).toBe(201);
    expect(ignored.headers.get("warning")).toBeNull();
    expect(ignored.body.metadata.lables).toBeUndefined();
    const foo = await c.post<{ message: string }>(`${FOOS}?fieldValidation=Strict`, {
      ...FOO_TYPE,
      metadata: { name: "fv-foo", lables: { a: "b" } },
      spec: { replicas: 1, bogus: true },
    });
    expect(foo.body.message).toBe(
      'Foo in version "v1alpha1" cannot be handled as a Foo: strict decoding error: unknown field "metadata.lables", unknown field "spec.bogus"',
    );
    // Every ObjectMeta field a real cluster accepts is accepted.
    const full = await c.post<KObj>(`${FOOS}?fieldValidation=Strict`, {
      ...FOO_TYPE,
      metadata: {
        name: "fv-full",
        generateName: "fv-",
        namespace: "default",
        selfLink: "/x",
        uid: "u",
        resourceVersion: "",
        generation: 7,
        creationTimestamp: "2020-01-01T00:00:00Z",
        deletionGracePeriodSeconds: 0,
        labels: { a: "b" },
        annotations: { a: "b" },
        ownerReferences: [
          {
            apiVersion: "v1",
            kind: "Namespace",
            name: "default",
            uid: "u",
            controller: false,
            blockOwnerDeletion: false,
          },
        ],
        finalizers: ["example.com/f"],
        managedFields: [{ manager: "m", operation: "Update" }],
      },
      spec: { replicas: 1 },
    });
    expect(full.status).toBe(201);
    expect(full.headers.get("warning")).toBeNull();
  });

  it("refuses a namespace that does not exist with 404", async () => {
    const r = await c.post<{ message: string }>(
      "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/nope/foos",
      { ...FOO_TYPE, metadata: { name: "x" }, spec: { replicas: 1 } },
    );
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('namespaces "nope" not found');
  });

  it("makes uids and generated names reproducible with a seed", async () => {
    const ids = async () => {
      const s = await startApiServer({ seed: 42 });
      try {
        const client = new RawClient(s.url);
        const r = await client.post<KObj>(FOOS, {
          apiVersion: "samplecontroller.k8s.io/v1alpha1",
          kind: "Foo",
          metadata: { generateName: "seeded-" },
          spec: { replicas: 1 },
        });
        return [r.body.metadata.name, r.body.metadata.uid];
      } finally {
        await s.stop();
      }
    };
    expect(await ids()).toEqual(await ids());
  });

  it("generates a name from generateName", async () => {
    const r = await c.post<KObj>(FOOS, {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { generateName: "gen-" },
      spec: { replicas: 1 },
    });
    expect(r.status).toBe(201);
    expect(r.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });
});

describe("resourceVersion and generation", () => {
  it("increases across the whole store, and a list reports the latest", async () => {
    const a = await c.createFoo("rv-a");
    const d = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("rv-d"))).body;
    const b = await c.createFoo("rv-b");
    expect(rv(d)).toBeGreaterThan(rv(a));
    expect(rv(b)).toBeGreaterThan(rv(d));
    const list = await c.get<{ metadata: { resourceVersion: string } }>(FOOS);
    expect(BigInt(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(rv(b));
  });

  it("bumps a Foo's generation on spec changes only", async () => {
    const foo = await c.createFoo("gen-foo");
    const annotated = (
      await c.put<KObj>(`${FOOS}/gen-foo`, {
        ...foo,
        metadata: { ...foo.metadata, annotations: { a: "1" } },
      })
    ).body;
    expect(annotated.metadata.generation).toBe(1);
    expect(rv(annotated)).toBeGreaterThan(rv(foo));
    const status = (
      await c.put<KObj>(`${FOOS}/gen-foo/status`, {
        ...annotated,
        status: { availableReplicas: 1 },
      })
    ).body;
    expect(status.metadata.generation).toBe(1);
    const scaled = (
      await c.put<KObj>(`${FOOS}/gen-foo`, {
        ...status,
        spec: { deploymentName: "gen-foo", replicas: 3 },
      })
    ).body;
    expect(scaled.metadata.generation).toBe(2);
  });

  it("keeps server-owned fields whatever the client sends", async () => {
    const foo = await c.createFoo("owned-fields");
    const r = await c.put<KObj>(`${FOOS}/owned-fields`, {
      ...foo,
      // (A uid of another object is a failed precondition: see "takes a uid …".)
      metadata: {
        ...foo.metadata,
        generation: 99,
        creationTimestamp: "2000-01-01T00:00:00Z",
      },
    });
    expect(r.body.metadata.uid).toBe(foo.metadata.uid);
    expect(r.body.metadata.generation).toBe(1);
    expect(r.body.metadata.creationTimestamp).toBe(foo.metadata.creationTimestamp);
  });
});

describe("status subresource", () => {
  it("main-resource writes ignore status; /status writes ignore everything else", async () => {
    const foo = await c.createFoo("iso", 2);
    const main = (
      await c.put<KObj>(`${FOOS}/iso`, {
        ...foo,
        spec: { deploymentName: "iso", replicas: 3 },
        status: { availableReplicas: 9 },
      })
    ).body;
    expect(main.status).toBeUndefined();
    expect(main.spec?.replicas).toBe(3);
    const st = (
      await c.put<KObj>(`${FOOS}/iso/status`, {
        ...main,
        metadata: { ...main.metadata, labels: { x: "y" } },
        spec: { replicas: 5 },
        status: { availableReplicas: 2 },
      })
    ).body;
    expect(st.status).toEqual({ availableReplicas: 2 });
    expect(st.spec?.replicas).toBe(3);
    expect(st.metadata.labels).toBeUndefined();
    const patched = (
      await c.patch<KObj>(`${FOOS}/iso/status`, {
        spec: { replicas: 7 },
        status: { availableReplicas: 3 },
      })
    ).body;
    expect(patched.spec?.replicas).toBe(3);
    expect(patched.status).toEqual({ availableReplicas: 3 });
  });
});

describe("optimistic concurrency", () => {
  it("answers a stale PUT with the real 409 Conflict", async () => {
    const foo = await c.createFoo("occ");
    await c.put(`${FOOS}/occ`, { ...foo, spec: { deploymentName: "occ", replicas: 2 } });
    const stale = await c.put(`${FOOS}/occ/status`, { ...foo, status: { availableReplicas: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message:
        'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "occ": the object has been modified; please apply your changes to the latest version and try again',
      reason: "Conflict",
      details: { name: "occ", group: "samplecontroller.k8s.io", kind: "foos" },
      code: 409,
    });
  });

  it("requires a resourceVersion on a Foo PUT (422) but not on a Deployment PUT", async () => {
    const foo = await c.createFoo("no-rv");
    const { resourceVersion: _rv, ...meta } = foo.metadata;
    const r = await c.put<{ message: string; details: { kind: string } }>(`${FOOS}/no-rv`, {
      ...foo,
      metadata: meta,
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'foos.samplecontroller.k8s.io "no-rv" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    expect(r.body.details.kind).toBe("foos");
    await c.post(DEPLOYMENTS, deploymentBody("no-rv-d"));
    const d = await c.put<KObj>(`${DEPLOYMENTS}/no-rv-d`, deploymentBody("no-rv-d", 2));
    expect(d.status).toBe(200);
    expect(d.body.spec?.replicas).toBe(2);
  });

  it("applies a PATCH unconditionally unless it names a resourceVersion", async () => {
    const foo = await c.createFoo("patch-rv");
    await c.patch(`${FOOS}/patch-rv`, { spec: { replicas: 2 } });
    const stale = await c.patch(`${FOOS}/patch-rv`, {
      metadata: { resourceVersion: foo.metadata.resourceVersion },
      spec: { replicas: 3 },
    });
    expect(stale.status).toBe(409);
  });
});

describe("no-op updates", () => {
  it("return the same resourceVersion and emit no watch event", async () => {
    const foo = await c.createFoo("noop");
    const first = (
      await c.put<KObj>(`${FOOS}/noop/status`, { ...foo, status: { availableReplicas: 0 } })
    ).body;
    expect(rv(first)).toBeGreaterThan(rv(foo));
    const w = await c.watch(
      `${FOOS}?watch=true&fieldSelector=metadata.name%3Dnoop&resourceVersion=${first.metadata.resourceVersion}`,
    );
    const again = (
      await c.put<KObj>(`${FOOS}/noop/status`, { ...first, status: { availableReplicas: 0 } })
    ).body;
    expect(again.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const sameSpec = (await c.put<KObj>(`${FOOS}/noop`, again)).body;
    expect(sameSpec.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const changed = (
      await c.put<KObj>(`${FOOS}/noop/status`, { ...again, status: { availableReplicas: 1 } })
    ).body;
    const events = await w.until((e) => e.length >= 1);
    w.close();
    expect(events[0].type).toBe("MODIFIED");
    expect(events[0].object.metadata.resourceVersion).toBe(changed.metadata.resourceVersion);
  });

  it("treat a re-serialized timestamp (.000Z) as unchanged", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("noop-d"));
    // Let the simulated Deployment controller finish, so nothing else writes meanwhile.
    const d = await eventually(async () => {
      const got = (await c.get<KObj>(`${DEPLOYMENTS}/noop-d`)).body;
      return got.status?.availableReplicas === 1 ? got : undefined;
    });
    // client-node's typed objects turn metav1.Time into a Date and send it back with millis.
    const conditions = (d.status?.conditions as Record<string, string>[]).map((cond) => ({
      ...cond,
      lastUpdateTime: cond.lastUpdateTime.replace("Z", ".000Z"),
      lastTransitionTime: cond.lastTransitionTime.replace("Z", ".000Z"),
    }));
    const r = await c.put<KObj>(`${DEPLOYMENTS}/noop-d/status`, {
      ...d,
      status: { ...d.status, conditions },
    });
    expect(r.body.metadata.resourceVersion).toBe(d.metadata.resourceVersion);
  });
});

describe("error shapes", () => {
  it("404 for a missing object and for an unknown path", async () => {
    const r = await c.get(`${DEPLOYMENTS}/missing`);
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'deployments.apps "missing" not found',
      reason: "NotFound",
      details: { name: "missing", group: "apps", kind: "deployments" },
      code: 404,
    });
    const path = await c.get("/apis/nothing.example/v1/widgets");
    expect(path.status).toBe(404);
    expect(path.body.message).toBe("the server could not find the requested resource");
    const scale = await c.get(`${FOOS}/x/scale`);
    expect(scale.status).toBe(404);
  });

  it("415 for a strategic merge patch on a custom resource", async () => {
    await c.createFoo("smp");
    const r = await c.patch(
      `${FOOS}/smp`,
      { spec: { replicas: 2 } },
      "application/strategic-merge-patch+json",
    );
    expect(r.status).toBe(415);
    expect(r.body.reason).toBe("UnsupportedMediaType");
    expect(r.body.message).toBe(
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json",
    );
  });

  it("415 for server-side apply, saying it is not served and listing only what is", async () => {
    await c.createFoo("ssa");
    const foo = await c.request(
      "PATCH",
      `${FOOS}/ssa?fieldManager=kubectl`,
      "spec:\n  replicas: 2\n",
      "application/apply-patch+yaml",
    );
    expect(foo.status).toBe(415);
    expect(foo.body.reason).toBe("UnsupportedMediaType");
    expect(foo.body.message).toBe(
      "server-side apply (application/apply-patch+yaml) is not served by loopscope's embedded API server: use client-side apply (kubectl apply without --server-side); accepted patch media types: application/json-patch+json, application/merge-patch+json",
    );
    await c.post(DEPLOYMENTS, deploymentBody("ssa-deploy"));
    const d = await c.request(
      "PATCH",
      `${DEPLOYMENTS}/ssa-deploy`,
      "spec:\n  replicas: 2\n",
      "application/apply-patch+yaml",
    );
    expect(d.status).toBe(415);
    expect(String(d.body.message)).toMatch(
      /accepted patch media types: application\/json-patch\+json, application\/merge-patch\+json, application\/strategic-merge-patch\+json$/,
    );
  });

  it("400 for malformed JSON", async () => {
    const r = await c.request("POST", FOOS, "{not json");
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe("BadRequest");
  });
});

describe("patches", () => {
  it("applies JSON patch and merge patch to a Foo", async () => {
    await c.createFoo("jp");
    const j = await c.patch<KObj>(
      `${FOOS}/jp`,
      [{ op: "replace", path: "/spec/replicas", value: 4 }],
      "application/json-patch+json",
    );
    expect(j.body.spec?.replicas).toBe(4);
    const m = await c.patch<KObj>(`${FOOS}/jp`, { metadata: { labels: { a: "b" } } });
    expect(m.body.metadata.labels).toEqual({ a: "b" });
    expect(m.body.spec?.replicas).toBe(4);
    const bad = await c.patch(
      `${FOOS}/jp`,
      [{ op: "remove", path: "/spec/nothing" }],
      "application/json-patch+json",
    );
    expect(bad.status).toBe(422);
  });

  it("400 for a patch body that does not decode, in the patch handler's and Go's words", async () => {
    await c.createFoo("bad-patch");
    await c.post(DEPLOYMENTS, deploymentBody("bad-patch-d"));
    const JP = "application/json-patch+json";
    const SMP = "application/strategic-merge-patch+json";
    for (const [path, body, type, message] of [
      [
        `${FOOS}/bad-patch`,
        { op: "replace", path: "/spec/replicas", value: 2 },
        JP,
        "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
      ],
      [
        `${FOOS}/bad-patch`,
        [{ op: 1, path: "/spec" }],
        JP,
        "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string",
      ],
      [
        `${FOOS}/bad-patch`,
        JSON.stringify("not json"),
        undefined,
        "error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}",
      ],
      [
        `${FOOS}/bad-patch`,
        "not json",
        undefined,
        "error decoding patch: invalid character 'o' in literal null (expecting 'u')",
      ],
      [
        `${FOOS}/bad-patch`,
        "{bad}",
        JP,
        "error decoding patch: invalid character 'b' looking for beginning of object key string",
      ],
      [
        `${FOOS}/bad-patch`,
        '{"spec": {"replicas": 2}',
        undefined,
        "error decoding patch: unexpected end of JSON input",
      ],
      // A strategic merge patch's error is Go's alone.
      [
        `${DEPLOYMENTS}/bad-patch-d`,
        "[1]",
        SMP,
        "json: cannot unmarshal array into Go value of type map[string]interface {}",
      ],
      [`${DEPLOYMENTS}/bad-patch-d`, "{} x", SMP, "invalid character 'x' after top-level value"],
    ] as const) {
      const r = await c.patch<StatusBody>(path, body, type);
      expect(r.status, message).toBe(400);
      expect(r.body).toMatchObject({ reason: "BadRequest", message });
    }
  });

  it("applies kubectl's strategic merge patch to a Deployment", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("smp-d", 1, "nginx:1.24"));
    const r = await c.patch<KObj>(
      `${DEPLOYMENTS}/smp-d`,
      {
        spec: {
          replicas: 2,
          template: {
            spec: {
              $setElementOrder: undefined,
              "$setElementOrder/containers": [{ name: "nginx" }],
              containers: [{ image: "nginx:1.25", name: "nginx" }],
            },
          },
        },
      },
      "application/strategic-merge-patch+json",
    );
    expect(r.status).toBe(200);
    const containers = (
      r.body.spec as { template: { spec: { containers: Record<string, unknown>[] } } }
    ).template.spec.containers;
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({
      name: "nginx",
      image: "nginx:1.25",
      imagePullPolicy: "IfNotPresent",
    });
    expect(JSON.stringify(r.body)).not.toContain("$setElementOrder");
  });
});

describe("Deployments", () => {
  it("fill the defaults a real server fills", async () => {
    const r = await c.post<KObj>(DEPLOYMENTS, deploymentBody("defaults", 1, "nginx"));
    const spec = r.body.spec as Record<string, unknown>;
    expect(spec.strategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
    const pod = (spec.template as { spec: Record<string, unknown> }).spec;
    expect(pod).toMatchObject({
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
      terminationGracePeriodSeconds: 30,
      schedulerName: "default-scheduler",
      securityContext: {},
    });
    expect((pod.containers as unknown[])[0]).toMatchObject({
      imagePullPolicy: "Always",
      terminationMessagePath: "/dev/termination-log",
      terminationMessagePolicy: "File",
      resources: {},
    });
    expect(r.body.status).toEqual({});
  });

  it("bump generation on annotation changes (apps strategy) and serve /scale", async () => {
    const d = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("scale-me"))).body;
    const annotated = (
      await c.patch<KObj>(`${DEPLOYMENTS}/scale-me`, { metadata: { annotations: { note: "x" } } })
    ).body;
    expect(annotated.metadata.generation).toBe(2);
    const scale = await c.get<{
      kind: string;
      spec: { replicas: number };
      status: { selector: string };
    }>(`${DEPLOYMENTS}/scale-me/scale`);
    expect(scale.body.kind).toBe("Scale");
    expect(scale.body.status.selector).toBe("app=scale-me");
    const patched = await c.patch<{ spec: { replicas: number } }>(`${DEPLOYMENTS}/scale-me/scale`, {
      spec: { replicas: 3 },
    });
    expect(patched.body.spec.replicas).toBe(3);
    const after = (await c.get<KObj>(`${DEPLOYMENTS}/scale-me`)).body;
    expect(after.spec?.replicas).toBe(3);
    expect(after.metadata.uid).toBe(d.metadata.uid);
  });

  it("reject a selector that does not match the template labels", async () => {
    const body = deploymentBody("mismatch");
    body.spec.selector.matchLabels.app = "other";
    const r = await c.post<{ message: string }>(DEPLOYMENTS, body);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("spec.template.metadata.labels");
  });

  it("reject an empty selector as invalid, a missing one as required (ValidateDeploymentSpec)", async () => {
    const empty = deploymentBody("empty-selector");
    const r = await c.post<{ message: string }>(DEPLOYMENTS, {
      ...empty,
      spec: { ...empty.spec, selector: { matchLabels: {} } },
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Deployment.apps "empty-selector" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    );
    const { selector: _s, ...noSelector } = empty.spec;
    const missing = await c.post<{ message: string }>(DEPLOYMENTS, { ...empty, spec: noSelector });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe(
      'Deployment.apps "empty-selector" is invalid: spec.selector: Required value',
    );
  });

  it("refuse a change of the selector: apps/v1 keeps it for life (422 field is immutable)", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("fixed-selector"));
    const r = await c.patch<{ message: string }>(
      `${DEPLOYMENTS}/fixed-selector`,
      {
        spec: {
          selector: { matchLabels: { app: "fixed-selector", v: "2" } },
          template: { metadata: { labels: { app: "fixed-selector", v: "2" } } },
        },
      },
      "application/strategic-merge-patch+json",
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'Deployment.apps "fixed-selector" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"fixed-selector", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    // The rest of the spec still changes.
    const scaled = await c.patch(
      `${DEPLOYMENTS}/fixed-selector`,
      { spec: { replicas: 2 } },
      "application/merge-patch+json",
    );
    expect(scaled.status).toBe(200);
  });
});

describe("delete and garbage collection", () => {
  it("returns a Success Status, then collects the deleted Foo's Deployment in the background", async () => {
    const foo = await c.createFoo("gc-foo");
    const ref = { ...fooRef(foo), controller: true, blockOwnerDeletion: true };
    expect((await c.post(DEPLOYMENTS, deploymentBody("gc-foo", 1, "nginx", [ref]))).status).toBe(
      201,
    );
    expect((await c.post(DEPLOYMENTS, deploymentBody("gc-bystander"))).status).toBe(201);
    const del = await c.delete(`${FOOS}/gc-foo`, { propagationPolicy: "Background" });
    expect(del.body).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: {
        name: "gc-foo",
        group: "samplecontroller.k8s.io",
        kind: "foos",
        uid: foo.metadata.uid,
      },
    });
    await eventually(async () => (await c.get(`${DEPLOYMENTS}/gc-foo`)).status === 404);
    expect((await c.get(`${DEPLOYMENTS}/gc-bystander`)).status).toBe(200);
    expect((await c.delete(`${FOOS}/gc-foo`)).status).toBe(404);
  });

  it("requires a uid in every ownerReference (422)", async () => {
    const ref = { apiVersion: "samplecontroller.k8s.io/v1alpha1", kind: "Foo", name: "x" };
    const r = await c.post<{ message: string }>(
      DEPLOYMENTS,
      deploymentBody("no-uid", 1, "nginx", [ref]),
    );
    expect(r.status).toBe(422);
    expect(r.body.message).toContain("metadata.ownerReferences.uid");
  });

  it("collects a dependent whose owner never existed", async () => {
    const ref = {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      name: "ghost",
      uid: "00000000-0000-4000-8000-000000000000",
    };
    expect((await c.post(DEPLOYMENTS, deploymentBody("orphaned", 1, "nginx", [ref]))).status).toBe(
      201,
    );
    await eventually(async () => (await c.get(`${DEPLOYMENTS}/orphaned`)).status === 404);
  });

  it("leaves references to kinds it does not serve alone", async () => {
    const ref = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      name: "w",
      uid: "00000000-0000-4000-8000-000000000001",
    };
    expect(
      (await c.post(DEPLOYMENTS, deploymentBody("foreign-owner", 1, "nginx", [ref]))).status,
    ).toBe(201);
    // Deleting an unrelated owner makes the collector run; the foreign reference must survive it.
    const foo = await c.createFoo("gc-trigger");
    const own = fooRef(foo);
    await c.post(DEPLOYMENTS, deploymentBody("gc-trigger", 1, "nginx", [own]));
    await c.delete(`${FOOS}/gc-trigger`);
    await eventually(async () => (await c.get(`${DEPLOYMENTS}/gc-trigger`)).status === 404);
    expect((await c.get(`${DEPLOYMENTS}/foreign-owner`)).status).toBe(200);
  });

  it("foreground deletion keeps the owner until its dependents are gone", async () => {
    const foo = await c.createFoo("fg-foo");
    const ref = { ...fooRef(foo), blockOwnerDeletion: true };
    await c.post(DEPLOYMENTS, deploymentBody("fg-dep", 1, "nginx", [ref]));
    const del = await c.delete<KObj>(`${FOOS}/fg-foo`, { propagationPolicy: "Foreground" });
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    expect(del.body.metadata.finalizers).toEqual(["foregroundDeletion"]);
    await eventually(async () => (await c.get(`${FOOS}/fg-foo`)).status === 404);
    expect((await c.get(`${DEPLOYMENTS}/fg-dep`)).status).toBe(404);
  });

  it("a dependent created while its owner waits in the foreground is deleted; then the owner goes", async () => {
    const foo = await c.createFoo("fg-wait");
    const ref = { ...fooRef(foo), blockOwnerDeletion: true };
    // A dependent that holds its own finalizer keeps the owner waiting.
    const held = deploymentBody("fg-held", 1, "nginx", [ref]);
    await c.post(DEPLOYMENTS, {
      ...held,
      metadata: { ...held.metadata, finalizers: ["example.com/hold"] },
    });
    await c.delete(`${FOOS}/fg-wait`, { propagationPolicy: "Foreground" });
    await eventually(
      async () => (await c.get<KObj>(`${DEPLOYMENTS}/fg-held`)).body.metadata.deletionTimestamp,
    );
    // A controller recreating its child while the owner waits for its children to go.
    await c.post(DEPLOYMENTS, deploymentBody("fg-late", 1, "nginx", [ref]));
    await eventually(async () => (await c.get(`${DEPLOYMENTS}/fg-late`)).status === 404);
    expect((await c.get(`${FOOS}/fg-wait`)).status).toBe(200);
    await c.patch(`${DEPLOYMENTS}/fg-held`, { metadata: { finalizers: null } });
    await eventually(async () => (await c.get(`${FOOS}/fg-wait`)).status === 404);
  });

  it("takes a uid in an update's body as a precondition (409), as a real server does", async () => {
    const body = deploymentBody("uid-pre");
    const made = await c.post<KObj>(DEPLOYMENTS, body);
    const stale = { ...body, metadata: { ...body.metadata, uid: "1234" } };
    const r = await c.put<{ message: string; reason: string }>(`${DEPLOYMENTS}/uid-pre`, stale);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      `Operation cannot be fulfilled on deployments.apps "uid-pre": Precondition failed: UID in precondition: 1234, UID in object meta: ${made.body.metadata.uid}`,
    );
    const same = { ...body, metadata: { ...body.metadata, uid: made.body.metadata.uid } };
    expect((await c.put(`${DEPLOYMENTS}/uid-pre`, same)).status).toBe(200);
  });

  it("a deletion that waits on finalizers bumps the generation once, as markAsDeleting does", async () => {
    await c.createFoo("gen-del", 1, {
      metadata: { name: "gen-del", finalizers: ["example.com/hold"] },
    });
    const del = await c.delete<KObj>(`${FOOS}/gen-del`);
    expect(del.body.metadata.generation).toBe(2);
    const again = await c.delete<KObj>(`${FOOS}/gen-del`);
    expect(again.body.metadata.generation).toBe(2);
    await c.patch(`${FOOS}/gen-del`, { metadata: { finalizers: null } });
  });

  it("refuses a propagation policy it does not know, rather than take it for Background", async () => {
    const foo = await c.createFoo("pp-owner");
    const ref = fooRef(foo);
    await c.post(DEPLOYMENTS, deploymentBody("pp-dep", 1, "nginx", [ref]));
    const r = await c.delete<{ message: string; reason: string }>(`${FOOS}/pp-owner`, {
      propagationPolicy: "orphan",
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "orphan": supported values: "Foreground", "Background", "Orphan"',
    );
    const both = await c.delete<{ message: string }>(`${FOOS}/pp-owner`, {
      propagationPolicy: "Background",
      orphanDependents: true,
    });
    expect(both.status).toBe(422);
    expect((await c.get(`${FOOS}/pp-owner`)).status).toBe(200);
    expect((await c.get(`${DEPLOYMENTS}/pp-dep`)).status).toBe(200);
  });

  it("an object being deleted may lose finalizers but gain none (422 Forbidden)", async () => {
    await c.createFoo("fin-held", 1, {
      metadata: { name: "fin-held", finalizers: ["example.com/hold"] },
    });
    const del = await c.delete<KObj>(`${FOOS}/fin-held`);
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    const r = await c.patch<{ message: string; reason: string; details: { causes: unknown[] } }>(
      `${FOOS}/fin-held`,
      { metadata: { finalizers: ["example.com/hold", "another/one", "a/b"] } },
    );
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe("Invalid");
    expect(r.body.message).toBe(
      'Foo.samplecontroller.k8s.io "fin-held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b", "another/one"}',
    );
    expect(r.body.details.causes).toEqual([
      {
        reason: "FieldValueForbidden",
        message:
          'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/b", "another/one"}',
        field: "metadata.finalizers",
      },
    ]);
    // Removing the last one still completes the deletion.
    const done = await c.patch(`${FOOS}/fin-held`, { metadata: { finalizers: null } });
    expect(done.status).toBe(200);
    expect((await c.get(`${FOOS}/fin-held`)).status).toBe(404);
  });

  it("orphan deletion leaves the dependent without its owner reference", async () => {
    const foo = await c.createFoo("or-foo");
    const ref = fooRef(foo);
    await c.post(DEPLOYMENTS, deploymentBody("or-dep", 1, "nginx", [ref]));
    await c.delete(`${FOOS}/or-foo`, { propagationPolicy: "Orphan" });
    await eventually(async () => (await c.get(`${FOOS}/or-foo`)).status === 404);
    const dep = await c.get<KObj>(`${DEPLOYMENTS}/or-dep`);
    expect(dep.status).toBe(200);
    expect(dep.body.metadata.ownerReferences).toBeUndefined();
  });
});

describe("selectors, namespaces and events", () => {
  it("filters lists by label and field selectors", async () => {
    await c.createFoo("sel-a", 1, {
      metadata: { name: "sel-a", labels: { tier: "web", team: "x" } },
    });
    await c.createFoo("sel-b", 1, { metadata: { name: "sel-b", labels: { tier: "db" } } });
    const names = async (q: string) =>
      ((await c.get<{ items: KObj[] }>(`${FOOS}?${q}`)).body.items ?? []).map(
        (i) => i.metadata.name,
      );
    expect(await names("labelSelector=tier%3Dweb")).toEqual(["sel-a"]);
    expect(await names("labelSelector=tier%20in%20(web,db)")).toEqual(["sel-a", "sel-b"]);
    expect(await names("labelSelector=tier,!team")).toEqual(["sel-b"]);
    expect(await names("fieldSelector=metadata.name%3Dsel-b")).toEqual(["sel-b"]);
    expect(await names("fieldSelector=metadata.namespace%3Dother")).toEqual([]);
    expect((await c.get(`${FOOS}?fieldSelector=spec.replicas%3D1`)).status).toBe(400);
  });

  it("creates, lists and deletes namespaces with their contents", async () => {
    const ns = await c.post<KObj>("/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "team-a" },
    });
    expect(ns.status).toBe(201);
    expect(ns.body.status).toEqual({ phase: "Active" });
    const foo = await c.post("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team-a/foos", {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "f" },
      spec: { replicas: 1 },
    });
    expect(foo.status).toBe(201);
    const all = await c.get<{ items: KObj[] }>("/apis/samplecontroller.k8s.io/v1alpha1/foos");
    expect(all.body.items.some((i) => i.metadata.namespace === "team-a")).toBe(true);
    const del = await c.delete<KObj>("/api/v1/namespaces/team-a");
    expect(del.body.status).toEqual({ phase: "Terminating" });
    await eventually(async () => (await c.get("/api/v1/namespaces/team-a")).status === 404);
    expect(
      (await c.get("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team-a/foos/f")).status,
    ).toBe(404);
    expect((await c.delete("/api/v1/namespaces/default")).status).toBe(403);
  });

  it("refuses a create in a terminating namespace as NamespaceLifecycle admission does", async () => {
    const NS = "/api/v1/namespaces";
    await c.post(NS, { apiVersion: "v1", kind: "Namespace", metadata: { name: "team-t" } });
    const held = `/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team-t/foos/held`;
    const made = await c.post("/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team-t/foos", {
      ...FOO_TYPE,
      metadata: { name: "held", finalizers: ["example.com/hold"] },
      spec: { replicas: 1 },
    });
    expect(made.status).toBe(201);
    // The Foo's finalizer keeps the namespace Terminating.
    await c.delete(`${NS}/team-t`);
    await eventually(async () => (await c.get<KObj>(held)).body.metadata?.deletionTimestamp);
    const terminating = (name: string) => ({
      code: 403,
      reason: "Forbidden",
      message: `${name} is forbidden: unable to create new content in namespace team-t because it is being terminated`,
      details: {
        causes: [
          {
            reason: "NamespaceTerminating",
            message: "namespace team-t is being terminated",
            field: "metadata.namespace",
          },
        ],
      },
    });
    const deploy = await c.post<StatusBody>(
      "/apis/apps/v1/namespaces/team-t/deployments",
      deploymentBody("web"),
    );
    expect(deploy.body).toMatchObject(terminating('deployments.apps "web"'));
    expect(deploy.body.details).toMatchObject({ name: "web", group: "apps", kind: "deployments" });
    // Before a name is generated, admission names the object by its generateName.
    const generated = await c.post<StatusBody>(
      "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/team-t/foos",
      { ...FOO_TYPE, metadata: { generateName: "foo-" }, spec: { replicas: 1 } },
    );
    expect(generated.body).toMatchObject(terminating('foos.samplecontroller.k8s.io "foo-"'));
    expect(generated.body.details).toMatchObject({
      name: "foo-",
      group: "samplecontroller.k8s.io",
      kind: "foos",
    });
    await c.patch(held, { metadata: { finalizers: null } });
    await eventually(async () => (await c.get(`${NS}/team-t`)).status === 404);
  });

  it("names namespaces as DNS labels, and keeps their kubernetes.io/metadata.name label", async () => {
    const create = (name: string) =>
      c.post<{ message: string }>("/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name },
      });
    const dotted = await create("a.b");
    expect(dotted.status).toBe(422);
    expect(dotted.body.message).toMatch(
      /^Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label must/,
    );
    const long = await create("x".repeat(70));
    expect(long.status).toBe(422);
    expect(long.body.message).toContain("metadata.name: Invalid value");
    expect(long.body.message).toContain("must be no more than 63 characters");
    expect(long.body.message).not.toContain("metadata.labels");
    expect((await create("team-b")).status).toBe(201);
    const relabelled = await c.patch<KObj>(
      "/api/v1/namespaces/team-b",
      { metadata: { labels: { "kubernetes.io/metadata.name": "hack", team: "b" } } },
      "application/merge-patch+json",
    );
    expect(relabelled.body.metadata.labels).toEqual({
      "kubernetes.io/metadata.name": "team-b",
      team: "b",
    });
  });

  it("records core/v1 Events and selects them by involved object", async () => {
    const ev = {
      metadata: { generateName: "example-foo." },
      involvedObject: {
        kind: "Foo",
        namespace: "default",
        name: "example-foo",
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
      },
      reason: "Synced",
      message: "Foo synced successfully",
      type: "Normal",
      source: { component: "sample-controller" },
      count: 1,
    };
    const r = await c.post<KObj>("/api/v1/namespaces/default/events", ev);
    expect(r.status).toBe(201);
    const list = await c.get<{ kind: string; items: (KObj & { reason: string })[] }>(
      "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dexample-foo,involvedObject.kind%3DFoo",
    );
    expect(list.body.kind).toBe("EventList");
    expect(list.body.items.map((e) => e.reason)).toEqual(["Synced"]);
    // `source` is source.component (else reportingComponent), not an object's path.
    const bySource = async (q: string) =>
      (
        await c.get<{ items: { reason: string }[] }>(
          `/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent(q)}`,
        )
      ).body.items.filter((e) => e.reason === "Synced").length;
    expect(await bySource("source=sample-controller")).toBe(1);
    expect(await bySource("source!=sample-controller")).toBe(0);
    const patched = await c.patch<KObj & { count: number }>(
      `/api/v1/namespaces/default/events/${r.body.metadata.name}`,
      { count: 2 },
      "application/strategic-merge-patch+json",
    );
    expect(patched.body.count).toBe(2);
  });
});

describe("a subresource a CRD does not serve", () => {
  it("is the custom resource's NotFound, as apiextensions answers `kubectl scale foo`", async () => {
    await c.createFoo("no-scale");
    const notFound = {
      kind: "Status",
      code: 404,
      reason: "NotFound",
      message: 'foos.samplecontroller.k8s.io "no-scale" not found',
      details: { name: "no-scale", group: "samplecontroller.k8s.io", kind: "foos" },
    };
    expect((await c.get(`${FOOS}/no-scale/scale`)).body).toMatchObject(notFound);
    const patched = await c.patch(`${FOOS}/no-scale/scale`, { spec: { replicas: 3 } });
    expect(patched.status).toBe(404);
    expect(patched.body).toMatchObject(notFound);
  });
});
