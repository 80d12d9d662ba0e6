/**
 * What users type besides Foos and Deployments, with the real kubectl: `kubectl get pods` and
 * `get rs` show the simulated Deployment's pods (ContainerCreating, then Running; as many as it
 * has replicas) and its ReplicaSets (one per template, rolled back by `rollout undo`), read-only
 * and gone with it; `kubectl get nodes` the one node they run on, and its lease beside any
 * leader election's; `kubectl get services` the
 * `kubernetes` Service; `kubectl
 * cluster-info` the control plane's address.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "./index.ts";
import { eventually } from "./testing/raw-client.ts";
import { findDefaultKubectl, kubectlFor, type Kubectl } from "./testing/kubectl.ts";

const kubectl = findDefaultKubectl();
if (!kubectl) console.warn("\n*** kubectl NOT FOUND on PATH: pods/services tests SKIPPED ***\n");

const rows = (out: string) =>
  out
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s{2,}/));

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`;

describe.skipIf(!kubectl)("kubectl get pods / services, cluster-info", { timeout: 120_000 }, () => {
  let server: ApiServer;
  let k: Kubectl;
  let cleanup: () => Promise<void>;
  // kubectl's exit status and stderr, for the commands expected to fail.
  const fails = (...args: string[]) =>
    k.run(...args).then(
      (out) => `unexpected success: ${out}`,
      (e: Error) => e.message,
    );
  const pods = async () => rows(await k.run("get", "pods")).slice(1);
  const replicaSets = async () => rows(await k.run("get", "rs")).slice(1);

  beforeAll(async () => {
    // Slow enough to see a pod before it is ready.
    server = await startApiServer({ deploymentReadyDelayMs: 4000, garbageCollectionDelayMs: 1 });
    ({ k, cleanup } = await kubectlFor(kubectl as string, server));
  });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  it("get services, nodes and cluster-info", async () => {
    expect(rows(await k.run("get", "nodes"))).toEqual([
      ["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
      ["loopscope-node", "Ready", "control-plane", expect.stringMatching(/^\d+s$/), "v1.32.0"],
    ]);
    expect(await fails("label", "node", "loopscope-node", "x=y")).toContain("MethodNotAllowed");
    // Its heartbeat lease, and leases as client-go's leader election writes them: MicroTimes
    // kept to the microsecond, the form Go clients parse (describe node failed on "…Z").
    expect(await k.run("describe", "node", "loopscope-node")).toMatch(
      /Lease:\s+HolderIdentity:\s+loopscope-node/,
    );
    const lease = join(k.env.HOME as string, "lease.yaml");
    await writeFile(
      lease,
      `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: sample-controller, namespace: kube-system}
spec: {holderIdentity: forge_1, leaseDurationSeconds: 15, renewTime: "2026-12-06T17:00:05.654321Z", acquireTime: "2026-12-06T17:00:00.1Z"}
`,
    );
    await k.run("apply", "-f", lease);
    expect(rows(await k.run("get", "leases", "-A"))).toEqual([
      ["NAMESPACE", "NAME", "HOLDER", "AGE"],
      ["kube-node-lease", "loopscope-node", "loopscope-node", expect.any(String)],
      ["kube-system", "sample-controller", "forge_1", expect.any(String)],
    ]);
    expect(
      JSON.parse(
        await k.run("get", "lease", "-n", "kube-system", "sample-controller", "-o", "json"),
      ).spec,
    ).toMatchObject({
      renewTime: "2026-12-06T17:00:05.654321Z",
      acquireTime: "2026-12-06T17:00:00.100000Z",
    });
    expect(rows(await k.run("get", "services"))).toEqual([
      ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"],
      [
        "kubernetes",
        "ClusterIP",
        "10.96.0.1",
        "<none>",
        "443/TCP",
        expect.stringMatching(/^\d+s$/),
      ],
    ]);
    const svc = JSON.parse(await k.run("get", "svc", "kubernetes", "-o", "json"));
    expect(svc).toMatchObject({
      kind: "Service",
      metadata: { namespace: "default", labels: { component: "apiserver" } },
      spec: { type: "ClusterIP", ports: [{ name: "https", port: 443, protocol: "TCP" }] },
    });
    const info = await k.run("cluster-info");
    expect(info).toContain(`Kubernetes control plane is running at ${server.url}`);
    expect(await fails("delete", "svc", "kubernetes")).toContain(
      "(MethodNotAllowed): the server does not allow this method on the requested resource",
    );
  });

  it("auth can-i: everything is allowed (the server has no authorization)", async () => {
    // A protobuf SelfSubjectAccessReview per question, a SelfSubjectRulesReview for --list.
    expect(await k.run("auth", "can-i", "create", "foos")).toBe("yes\n");
    expect(await k.run("auth", "can-i", "delete", "deployments", "-n", "kube-system")).toBe(
      "yes\n",
    );
    expect(await k.run("auth", "can-i", "get", "/healthz")).toBe("yes\n");
    expect(rows(await k.run("auth", "can-i", "--list"))).toEqual([
      ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"],
      ["*.*", "[]", "[]", "[*]"],
      ["[*]", "[]", "[*]"],
    ]);
  });

  it("get pods: the Deployment's pods, creating then running, following its replicas", async () => {
    expect(await k.run("get", "pods")).toBe("");
    const file = join(k.env.HOME as string, "web.yaml");
    await writeFile(file, DEPLOYMENT);
    await k.run("apply", "-f", file);
    await eventually(async () => (await pods()).length === 2, 200);
    const creating = await pods();
    for (const [name, ready, status, restarts] of creating) {
      expect(name).toMatch(/^web-[0-9a-f]{10}-[a-z0-9]{5}$/);
      expect([ready, status, restarts]).toEqual(["0/1", "ContainerCreating", "0"]);
    }
    await eventually(async () => (await pods()).every((p) => p[2] === "Running"), 200);
    expect((await pods()).map((p) => p.slice(0, 4))).toEqual(
      creating.map((p) => [p[0], "1/1", "Running", "0"]),
    );
    const wide = rows(await k.run("get", "pods", "-o", "wide"));
    expect(wide[0]).toEqual([
      "NAME",
      "READY",
      "STATUS",
      "RESTARTS",
      "AGE",
      "IP",
      "NODE",
      "NOMINATED NODE",
      "READINESS GATES",
    ]);
    expect(wide[1]?.[5]).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(wide[1]?.[6]).toBe("loopscope-node");
    const running = await k.run(
      "get",
      "pods",
      "-l",
      "app=web",
      "--field-selector",
      "status.phase=Running",
      "-o",
      "name",
    );
    expect(running.trim().split("\n")).toHaveLength(2);
    // A set-based order selector matches; a key no label could have is refused, not "none".
    await k.run("label", "deploy", "web", "idx=5");
    expect(await k.run("get", "deploy", "-l", "idx>3", "-o", "name")).toBe("deployment.apps/web\n");
    expect(await k.run("get", "deploy", "-l", "idx<3", "-o", "name")).toBe("");
    await expect(k.run("get", "pods", "-l", "app:web")).rejects.toThrow(
      /Invalid value: "app:web": name part must consist of/,
    );
    // Owned by the ReplicaSet the Deployment's condition names.
    const pod = JSON.parse(await k.run("get", "pod", creating[0]![0]!, "-o", "json"));
    const deploy = JSON.parse(await k.run("get", "deploy", "web", "-o", "json"));
    const rs = pod.metadata.ownerReferences[0];
    expect(rs).toMatchObject({ apiVersion: "apps/v1", kind: "ReplicaSet", controller: true });
    expect(
      deploy.status.conditions.some((c: { message: string }) => c.message.includes(rs.name)),
    ).toBe(true);
    // …a ReplicaSet served as the Deployment's own, counting those pods.
    expect(rows(await k.run("get", "rs", "-o", "wide"))).toEqual([
      ["NAME", "DESIRED", "CURRENT", "READY", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"],
      [rs.name, "2", "2", "2", expect.any(String), "nginx", "nginx:1.25", expect.any(String)],
    ]);
    const replicaSet = JSON.parse(await k.run("get", "rs", rs.name, "-o", "json"));
    expect(replicaSet.metadata.uid).toBe(rs.uid);
    expect(replicaSet.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: "Deployment", name: "web", uid: deploy.metadata.uid }),
    ]);
    expect(replicaSet.spec.selector.matchLabels).toEqual({
      app: "web",
      "pod-template-hash": pod.metadata.labels["pod-template-hash"],
    });
    // The node runs them.
    expect(await k.run("describe", "node", "loopscope-node")).toMatch(
      /Non-terminated Pods:\s+\(2 in total\)/,
    );
    // The cluster's components say so in Events, as on a cluster.
    expect(await k.run("describe", "deploy", "web")).toMatch(
      new RegExp(
        `ScalingReplicaSet +\\S+ +deployment-controller +Scaled up replica set ${rs.name} to 2`,
      ),
    );
    const events = await k.run(
      "get",
      "events",
      "-o",
      "custom-columns=R:.reason,M:.message,C:.source.component",
    );
    for (const [name] of creating)
      for (const line of [
        `SuccessfulCreate +Created pod: ${name} +replicaset-controller`,
        `Scheduled +Successfully assigned default/${name} to loopscope-node +default-scheduler`,
        `Started +Started container nginx +kubelet`,
      ])
        expect(events).toMatch(new RegExp(line));

    await k.run("scale", "deploy", "web", "--replicas=3");
    await eventually(
      async () => (await pods()).filter((p) => p[2] === "Running").length === 3,
      200,
    );
    await k.run("scale", "deploy", "web", "--replicas=1");
    await eventually(async () => (await pods()).length === 1, 200);
  });

  it("a new template is a new ReplicaSet; `rollout undo` makes the old one current again", async () => {
    const [[first]] = await replicaSets();
    await k.run("set", "image", "deploy/web", "nginx=nginx:1.27");
    await k.run("rollout", "status", "deploy/web", "--timeout=60s");
    await eventually(async () => (await replicaSets()).length === 2, 200);
    const second = (await replicaSets()).find((r) => r[0] !== first)![0];
    await eventually(async () => {
      const byName = new Map((await replicaSets()).map((r) => [r[0], r.slice(1, 4)]));
      return byName.get(first!)?.join() === "0,0,0" && byName.get(second!)?.join() === "1,1,1";
    }, 200);
    expect((await pods()).map((p) => p[0]!.slice(0, second!.length))).toEqual([second]);
    expect(await k.run("rollout", "history", "deploy/web")).toMatch(/^1\s+<none>\n2\s+<none>$/m);

    await k.run("rollout", "undo", "deploy/web");
    await k.run("rollout", "status", "deploy/web", "--timeout=60s");
    // The restored template is the first ReplicaSet's again: no third one, and it takes revision 3.
    await eventually(async () => {
      const byName = new Map((await replicaSets()).map((r) => [r[0], r.slice(1, 4)]));
      return byName.size === 2 && byName.get(first!)?.join() === "1,1,1";
    }, 200);
    expect(await k.run("rollout", "history", "deploy/web")).toMatch(/^2\s+<none>\n3\s+<none>$/m);
    expect(await k.run("describe", "deploy", "web")).toMatch(
      new RegExp(`NewReplicaSet:\\s+${first} \\(1/1 replicas created\\)`),
    );
    // No revision history kept: the old ReplicaSet goes.
    await k.run("patch", "deploy", "web", "-p", '{"spec":{"revisionHistoryLimit":0}}');
    await eventually(async () => (await replicaSets()).map((r) => r[0]).join() === first, 200);
  });

  it("pods are read-only, and go with their Deployment", async () => {
    const [name] = (await pods())[0]!;
    expect(await fails("delete", "pod", name!)).toContain(
      "(MethodNotAllowed): the server does not allow this method on the requested resource: pods here are the simulated cluster's own, read-only",
    );
    expect(await fails("label", "pod", name!, "x=y")).toContain("MethodNotAllowed");
    // No container runs in them: logs and exec say so, not "could not find the requested resource".
    const noContainer = `pod "${name}" stands for a replica in loopscope's simulated cluster: no container runs in it`;
    expect(await fails("logs", "deploy/web")).toContain(`(BadRequest): ${noContainer}`);
    expect(await fails("exec", name!, "--", "ls")).toContain(noContainer);
    expect(await fails("delete", "rs", "--all")).toContain("MethodNotAllowed");
    expect((await pods())[0]![0]).toBe(name);
    const all = await k.run("get", "all");
    expect(all).toContain(`pod/${name}`);
    expect(all).toContain("service/kubernetes");
    expect(all).toContain("deployment.apps/web");
    expect(all).toContain("replicaset.apps/web-");
    await k.run("delete", "deploy", "web");
    await eventually(async () => (await k.run("get", "rs,pods")) === "", 200);
  });
});
