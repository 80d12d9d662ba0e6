/**
 * `metadata.uid` is the object's for life, as on a cluster: a patch (merge, JSON, strategic) that
 * changes it is a 422 `metadata.uid: Invalid value: "…": field is immutable` (apimachinery's
 * ValidateObjectMetaUpdate), while an update that names another uid fails its precondition first
 * (409). A CR's /status write takes all metadata from the stored object, so there a uid is
 * ignored; a Deployment's /status keeps the sent metadata and is refused. Over real HTTP and
 * with the real kubectl.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import {
  DEPLOYMENTS,
  FOOS,
  RawClient,
  deploymentBody,
  type KObj,
  type StatusBody,
} from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer({ deploymentReadyDelayMs: 40, deploymentStepDelayMs: 5 });
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const OTHER = "00000000-0000-4000-8000-00000000beef";

describe("a patch that changes metadata.uid", () => {
  const patches: [string, string, unknown][] = [
    ["merge", "application/merge-patch+json", { metadata: { uid: OTHER } }],
    ["strategic", "application/strategic-merge-patch+json", { metadata: { uid: OTHER } }],
    [
      "JSON",
      "application/json-patch+json",
      [{ op: "replace", path: "/metadata/uid", value: OTHER }],
    ],
  ];
  it.each(patches)(
    "is a 422 field is immutable (%s patch), and changes nothing",
    async (name, type, patch) => {
      const made = (await c.post<KObj>(DEPLOYMENTS, deploymentBody(`uid-${name.toLowerCase()}`)))
        .body;
      const path = `${DEPLOYMENTS}/${made.metadata.name}`;
      const r = await c.patch<StatusBody>(path, patch, type);
      expect(r.status).toBe(422);
      expect(r.body.reason).toBe("Invalid");
      expect(r.body.message).toBe(
        `Deployment.apps "${made.metadata.name}" is invalid: metadata.uid: Invalid value: "${OTHER}": field is immutable`,
      );
      expect(r.body.details).toEqual({
        name: made.metadata.name,
        group: "apps",
        kind: "Deployment",
        causes: [
          {
            reason: "FieldValueInvalid",
            message: `Invalid value: "${OTHER}": field is immutable`,
            field: "metadata.uid",
          },
        ],
      });
      expect((await c.get<KObj>(path)).body.metadata.uid).toBe(made.metadata.uid);
    },
  );

  it("is refused for a custom resource too", async () => {
    const foo = await c.createFoo("uid-foo");
    const r = await c.patch<StatusBody>(`${FOOS}/uid-foo`, { metadata: { uid: OTHER } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe(
      `Foo.samplecontroller.k8s.io "uid-foo" is invalid: metadata.uid: Invalid value: "${OTHER}": field is immutable`,
    );
    expect((await c.get<KObj>(`${FOOS}/uid-foo`)).body.metadata.uid).toBe(foo.metadata.uid);
  });

  it("is refused on a Deployment's /status, ignored on a custom resource's", async () => {
    const d = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("uid-status"))).body;
    const st = await c.patch<StatusBody>(`${DEPLOYMENTS}/uid-status/status`, {
      metadata: { uid: OTHER },
    });
    expect(st.status).toBe(422);
    expect(st.body.message).toContain("metadata.uid: Invalid value");
    expect((await c.get<KObj>(`${DEPLOYMENTS}/uid-status`)).body.metadata.uid).toBe(d.metadata.uid);

    const foo = await c.createFoo("uid-foo-status");
    const fs = await c.patch<KObj>(`${FOOS}/uid-foo-status/status`, {
      metadata: { uid: OTHER },
      status: { availableReplicas: 1 },
    });
    expect(fs.status).toBe(200);
    expect(fs.body.metadata.uid).toBe(foo.metadata.uid);
  });

  it("is no change when it names the same uid, or removes it", async () => {
    // A Foo: nothing else writes it, so its resourceVersion shows whether anything was written.
    const made = await c.createFoo("uid-same");
    const path = `${FOOS}/uid-same`;
    const same = await c.patch<KObj>(path, { metadata: { uid: made.metadata.uid } });
    expect(same.status).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(made.metadata.resourceVersion);
    const removed = await c.patch<KObj>(
      path,
      [{ op: "remove", path: "/metadata/uid" }],
      "application/json-patch+json",
    );
    expect(removed.status).toBe(200);
    expect(removed.body.metadata.uid).toBe(made.metadata.uid);
    expect(removed.body.metadata.resourceVersion).toBe(made.metadata.resourceVersion);
  });
});

describe("an update that names another uid", () => {
  it("fails its precondition (409) before any validation, as the update handler's does", async () => {
    const made = (await c.post<KObj>(DEPLOYMENTS, deploymentBody("uid-put"))).body;
    const r = await c.put<StatusBody>(`${DEPLOYMENTS}/uid-put`, {
      ...made,
      metadata: { ...made.metadata, uid: OTHER },
    });
    expect(r.status).toBe(409);
    expect(r.body.reason).toBe("Conflict");
    expect(r.body.message).toBe(
      `Operation cannot be fulfilled on deployments.apps "uid-put": Precondition failed: UID in precondition: ${OTHER}, UID in object meta: ${made.metadata.uid}`,
    );
  });
});

const kubectl = findDefaultKubectl();

describe.skipIf(!kubectl)("kubectl patch of metadata.uid", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectl!, server));
  });
  afterAll(() => cleanup());

  it("says the field is immutable, as against a cluster", async () => {
    await c.post(DEPLOYMENTS, deploymentBody("uid-kubectl"));
    const err = await k
      .run(
        "patch",
        "deployment",
        "uid-kubectl",
        "--type=merge",
        "-p",
        `{"metadata":{"uid":"${OTHER}"}}`,
      )
      .then(
        () => "",
        (e: Error) => e.message,
      );
    expect(err).toContain(
      `The Deployment "uid-kubectl" is invalid: metadata.uid: Invalid value: "${OTHER}": field is immutable`,
    );
  });
});
