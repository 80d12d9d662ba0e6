/**
 * startSession against clusters that are not ready: each failure is one clear line, and nothing
 * is left running. The "real cluster" is the embedded API server reached through a kubeconfig
 * file, with its fault injection standing in for RBAC refusals (its Foo CRD is deleted for real).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiextensionsV1Api, KubeConfig } from "@kubernetes/client-node";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { ClusterError, startSession, type Session } from "./session.ts";
import { startSilentCluster } from "../testing/silent-cluster.ts";
import { writeGoneKubeconfig } from "../testing/gone-kubeconfig.ts";

let dir: string;
let api: ApiServer | undefined;
let session: Session | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-session-"));
});
afterEach(async () => {
  await session?.stop();
  await api?.stop();
  session = undefined;
  api = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The CRD API of the cluster `path` names, as a user's kubectl would reach it. */
function fooCrds(path: string): ApiextensionsV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  return kc.makeApiClient(ApiextensionsV1Api);
}

async function kubeconfigFile(): Promise<string> {
  api = await startApiServer({ deploymentReadyDelayMs: 30 });
  const path = join(dir, "kubeconfig");
  await api.writeKubeconfig(path);
  return path;
}

describe("startSession with a kubeconfig", () => {
  it("connects, syncs and runs the controller", async () => {
    const path = await kubeconfigFile();
    session = await startSession({ cluster: { kind: "kubeconfig", path }, resyncMs: 0 });
    expect(session.apiserver).toBeUndefined();
    expect(session.controller.foos.hasSynced()).toBe(true);
  });

  it("connects to a plain-http:// server as kubectl does, without insecure-skip-tls-verify", async () => {
    // As a `kubectl proxy` kubeconfig is: client-node alone refuses it.
    const path = await kubeconfigFile();
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace(/^.*insecure-skip-tls-verify.*\n/m, ""));
    expect(await readFile(path, "utf8")).not.toContain("insecure");
    session = await startSession({ cluster: { kind: "kubeconfig", path }, resyncMs: 0 });
    expect(session.controller.foos.hasSynced()).toBe(true);
  });

  it("an unreachable server is one line", async () => {
    const path = await kubeconfigFile();
    const url = api!.url;
    await api!.stop();
    api = undefined;
    const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClusterError);
    expect((err as Error).message).toMatch(
      new RegExp(`^cannot reach the API server at ${url}: .*ECONNREFUSED`),
    );
    expect((err as Error).message).not.toContain("\n");
  });

  it("a server that answers, but not as a Kubernetes API server, is not called unreachable", async () => {
    // A web server where the API server was expected: it answers every request with a page.
    const page = createServer((_req, res) => res.end("<html>hello</html>"));
    await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const path = join(dir, "page-kubeconfig");
    await writeFile(
      path,
      [
        "apiVersion: v1",
        "kind: Config",
        `clusters: [{ name: page, cluster: { server: '${url}', insecure-skip-tls-verify: true } }]`,
        "users: [{ name: someone, user: {} }]",
        "contexts: [{ name: page, context: { cluster: page, user: someone } }]",
        "current-context: page",
      ].join("\n"),
    );
    try {
      const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ClusterError);
      expect((err as Error).message).toMatch(
        new RegExp(`^a request to the API server at ${url} failed: \\S`),
      );
    } finally {
      await new Promise((r) => page.close(r));
    }
  });

  it("a server that never answers is one line, after the preflight's limit", async () => {
    const silent = await startSilentCluster(dir);
    try {
      const err = await startSession({
        cluster: { kind: "kubeconfig", path: silent.kubeconfig },
        answerWithinMs: 300,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClusterError);
      expect((err as Error).message).toBe(
        `the API server at ${silent.url} did not answer within 0.3 s`,
      );
    } finally {
      await silent.close();
    }
  });

  it("a missing Foo CRD says to use --install-crd, which installs it", async () => {
    const path = await kubeconfigFile();
    // The embedded server starts with the CRD; deleted, it takes the Foo API with it (once its
    // finalizer has run), as on a cluster.
    const name = "foos.samplecontroller.k8s.io";
    await fooCrds(path).deleteCustomResourceDefinition({ name });
    for (;;) {
      const left = await fooCrds(path)
        .readCustomResourceDefinition({ name })
        .then(
          () => true,
          () => false,
        );
      if (!left) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(
      /the Foo CRD \(foos\.samplecontroller\.k8s\.io\) is not installed on .*; rerun with --install-crd/,
    );
    session = await startSession({
      cluster: { kind: "kubeconfig", path, installCrd: true },
      resyncMs: 0,
    });
    const crd = await fooCrds(path).readCustomResourceDefinition({
      name: "foos.samplecontroller.k8s.io",
    });
    expect(crd.spec.versions[0]?.subresources?.status).toEqual({});
    // And says so: it changed the user's cluster.
    expect(session.changedCluster).toEqual([
      expect.stringMatching(
        /^created the Foo CRD \(foos\.samplecontroller\.k8s\.io\) on http:\/\//,
      ),
    ]);
  });

  it("--install-crd on a CRD object that does not serve v1alpha1 says so, not that it created it", async () => {
    const path = await kubeconfigFile();
    const crds = fooCrds(path);
    const crd = await crds.readCustomResourceDefinition({ name: "foos.samplecontroller.k8s.io" });
    crd.spec.versions = crd.spec.versions.map((v) => ({ ...v, served: false }));
    await crds.replaceCustomResourceDefinition({ name: crd.metadata!.name!, body: crd });
    const err = await startSession({
      cluster: { kind: "kubeconfig", path, installCrd: true },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClusterError);
    expect((err as Error).message).toBe(
      `the Foo CRD (foos.samplecontroller.k8s.io) exists on ${api!.url} but does not serve samplecontroller.k8s.io/v1alpha1 foos: v1alpha1 is not among its served versions (none); check its versions and conditions with kubectl get crd foos.samplecontroller.k8s.io -o yaml`,
    );
  });

  it("an RBAC refusal names the user and the verb", async () => {
    const path = await kubeconfigFile();
    api!.faults.failNext(1, 403, ["list"]);
    const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(
      /^RBAC: user ".*" may not list foos\.samplecontroller\.k8s\.io on http:\/\/127\.0\.0\.1:\d+: /,
    );
  });

  it("an unknown context lists the known ones", async () => {
    const path = await kubeconfigFile();
    const err = await startSession({
      cluster: { kind: "kubeconfig", path, context: "nope" },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^context "nope" not found in .* \(contexts: .+\)$/);
  });

  it("a current-context that is no context says so, as kubectl does", async () => {
    const path = await kubeconfigFile();
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace(/current-context: .*/, "current-context: nope"));
    const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(
      /^current-context "nope" of .* is not one of its contexts \(.+\): pass --context NAME$/,
    );
  });

  it("a kubeconfig without a current-context says so and lists its contexts", async () => {
    const path = await kubeconfigFile();
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace(/^current-context: .*\n/m, ""));
    const err = await startSession({ cluster: { kind: "kubeconfig", path } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClusterError);
    expect((err as Error).message).toBe(
      `the kubeconfig ${path} sets no current-context; pass --context NAME (its contexts: loopscope-embedded)`,
    );
  });

  it("merges a list of kubeconfig files as kubectl does ($KUBECONFIG=a:b)", async () => {
    const path = await kubeconfigFile();
    const text = await readFile(path, "utf8");
    // The first file: another cluster, current; the second: the real one, under a new context.
    const other = join(dir, "other");
    await writeGoneKubeconfig(other);
    const ours = text.match(/current-context: (.*)/)![1]!.trim();
    session = await startSession({
      cluster: { kind: "kubeconfig", path: `${other}${delimiter}${path}`, context: ours },
      resyncMs: 0,
    });
    expect(session.clusterName).toBe(ours);
    expect(session.controller.foos.hasSynced()).toBe(true);
  });

  it("an unreadable kubeconfig is one line", async () => {
    const err = await startSession({
      cluster: { kind: "kubeconfig", path: join(dir, "missing") },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^cannot read kubeconfig .*missing: /);
  });
});

describe("startSession embedded", () => {
  it("starts the API server and the controller, and stop() is idempotent", async () => {
    session = await startSession({
      cluster: { kind: "embedded", apiserverOpts: { deploymentReadyDelayMs: 30 } },
      resyncMs: 0,
    });
    expect(session.apiserver?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await Promise.all([session.stop(), session.stop()]);
  });
});
