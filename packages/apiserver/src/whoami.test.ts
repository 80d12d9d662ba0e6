/**
 * `kubectl auth whoami` against the embedded server: authentication.k8s.io/v1 SelfSubjectReview
 * is discovered (create only) and answered with the identity a kind admin kubeconfig has —
 * `kubernetes-admin` in `kubeadm:cluster-admins` and `system:authenticated` — over real HTTP
 * (JSON) and from the real kubectl (which posts protobuf).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";
import { RawClient } from "./testing/raw-client.ts";

let server: ApiServer;
let c: RawClient;

beforeAll(async () => {
  server = await startApiServer();
  c = new RawClient(server.url);
});
afterAll(() => server.stop());

const SSR = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
const USER_INFO = {
  username: "kubernetes-admin",
  groups: ["kubeadm:cluster-admins", "system:authenticated"],
};

describe("SelfSubjectReview", () => {
  it("is discovered in authentication.k8s.io/v1, create only", async () => {
    const legacy = await c.get<{ resources: { name: string; kind: string; verbs: string[] }[] }>(
      "/apis/authentication.k8s.io/v1",
    );
    expect(legacy.status).toBe(200);
    expect(legacy.body.resources.map((r) => [r.name, r.kind, r.verbs])).toEqual([
      ["selfsubjectreviews", "SelfSubjectReview", ["create"]],
    ]);
  });

  it("answers a create with the caller's user info, stamped now and not stored", async () => {
    const before = Date.now() - 1000;
    const r = await c.post<{
      kind: string;
      apiVersion: string;
      metadata: { creationTimestamp: string };
      status: unknown;
    }>(SSR, { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      kind: "SelfSubjectReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { creationTimestamp: expect.any(String) },
      status: { userInfo: USER_INFO },
    });
    expect(Date.parse(r.body.metadata.creationTimestamp)).toBeGreaterThanOrEqual(before);
    expect((await c.get(SSR)).status).toBe(405);
  });
});

const kubectl = findDefaultKubectl();

describe.skipIf(!kubectl)("kubectl auth whoami", () => {
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ k, cleanup } = await kubectlFor(kubectl!, server));
  });
  afterAll(() => cleanup());

  it("prints the user and groups", async () => {
    const out = await k.run("auth", "whoami");
    const rows = out
      .trim()
      .split("\n")
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ["ATTRIBUTE", "VALUE"],
      ["Username", "kubernetes-admin"],
      ["Groups", "[kubeadm:cluster-admins system:authenticated]"],
    ]);
  });

  it("prints the review itself with -o json", async () => {
    const review = JSON.parse(await k.run("auth", "whoami", "-o", "json")) as {
      status: unknown;
    };
    expect(review.status).toEqual({ userInfo: USER_INFO });
  });
});
