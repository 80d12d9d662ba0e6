/**
 * The acceptance test of the proxy's inference: the real TypeScript FooController runs against the
 * embedded API server through the proxy, in a process of its own as a user's controller would.
 * Its probe records the reference trace (and nothing else: the proxy's trace comes from the wire
 * alone); both go through the same Analyzer, and every Foo's passes must have the same causes —
 * self, external, retry — in the same order.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { Analyzer, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";
import { startTracingProxy, type TracingProxy } from "./tracing-proxy.ts";

const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";

let api: ApiServer;
let proxy: TracingProxy;
let controller: ChildProcess;
let dir: string;
const wire: TraceEvent[] = [];
const probe: TraceEvent[] = [];
const learned: string[] = [];

const numbered = (into: TraceEvent[]) => (e: UnsequencedEvent) => {
  const ev = { ...e, seq: into.length + 1 } as TraceEvent;
  into.push(ev);
  return ev.seq;
};

function kubeConfigOf(yaml: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(yaml);
  return kc;
}

async function send(method: string, path: string, body: unknown, type = "application/json") {
  const res = await fetch(api.url + path, {
    method,
    headers: { "content-type": type },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

const foo = (name: string, replicas = 1) => ({
  apiVersion: "samplecontroller.k8s.io/v1alpha1",
  kind: "Foo",
  metadata: { name },
  spec: { deploymentName: name, replicas },
});

/** Until neither trace has grown for `quietMs` (the rollouts done, every pass over). */
async function settled(quietMs = 1500, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  let last = -1;
  let since = Date.now();
  for (;;) {
    const n = wire.length + probe.length;
    if (n !== last) {
      last = n;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    if (Date.now() > end) throw new Error("the controller never settled");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function analyzed(events: TraceEvent[]): Analyzer {
  const a = new Analyzer();
  a.pushAll(events);
  return a;
}

function causesByKey(events: TraceEvent[]): Record<string, string[]> {
  const a = analyzed(events);
  const out: Record<string, string[]> = {};
  for (const key of a.keys()) if (key !== "") out[key] = a.passes(key).map((p) => p.cause);
  return out;
}

function quietByKey(events: TraceEvent[]): Record<string, boolean> {
  const a = analyzed(events);
  const out: Record<string, boolean> = {};
  for (const key of a.keys()) if (key !== "") out[key] = a.summary(key)!.quiescent;
  return out;
}

beforeAll(async () => {
  // The simulated Deployment controller's rollout writes come well apart (a real rollout's do):
  // passes of one key do not overlap another writer's events, which no observer outside the
  // controller could order (see docs/proxy.md, "How exact it is").
  api = await startApiServer({ port: 0, deploymentReadyDelayMs: 1000, deploymentStepDelayMs: 400 });
  proxy = await startTracingProxy({
    upstream: kubeConfigOf(api.kubeconfigYaml()),
    emit: numbered(wire),
    onPrimary: (k) => learned.push(k),
  });
  dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-foo-"));
  const kubeconfig = join(dir, "kubeconfig");
  await writeFile(kubeconfig, proxy.server.kubeconfigYaml(), { mode: 0o600 });
  const fixture = fileURLToPath(new URL("./foo-controller.fixture.ts", import.meta.url));
  controller = spawn(process.execPath, ["--import", "tsx", fixture, kubeconfig], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  createInterface({ input: controller.stdout! }).on("line", (l) => probe.push(JSON.parse(l)));
  await new Promise<void>((resolve, reject) => {
    controller.stderr!.on("data", (c: Buffer) => {
      if (c.toString().includes("ready")) resolve();
    });
    controller.once("exit", (code) => reject(new Error(`the controller exited (${code})`)));
  });
});

afterAll(async () => {
  if (controller && controller.exitCode === null) {
    const exited = new Promise((r) => controller.once("exit", r));
    controller.kill("SIGTERM");
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
  await proxy?.stop();
  await api?.stop();
});

describe("the FooController through loopscope proxy", () => {
  it("gives every pass the cause its own probe gives it: creates, a scale, a child deleted, a Foo deleted", async () => {
    await send("POST", FOOS, foo("px-a"));
    await settled();
    await send("PATCH", `${FOOS}/px-a`, { spec: { replicas: 3 } }, "application/merge-patch+json");
    await settled();
    await send("DELETE", "/apis/apps/v1/namespaces/default/deployments/px-a", undefined);
    await settled();
    // The Foo itself: the wire shows its delete, and no pass after it (the controller's would
    // find it gone without a request).
    await send("DELETE", `${FOOS}/px-a`, undefined);
    await settled();
    // Two at once: two workers, each takes one.
    for (const name of ["px-b", "px-c"]) await send("POST", FOOS, foo(name));
    await settled();
    await proxy.stop();

    expect(learned).toEqual(["samplecontroller.k8s.io/Foo"]);
    const fromProbe = causesByKey(probe);
    const fromWire = causesByKey(wire);
    expect(Object.keys(fromProbe).sort()).toEqual(["default/px-a", "default/px-b", "default/px-c"]);
    // Something to compare: a create makes external and self-triggered passes alike.
    expect(fromProbe["default/px-c"]).toContain("self");
    expect(fromProbe["default/px-c"]).toContain("external");
    // Every Foo settled, the deleted one too, in both traces.
    const quiet = { "default/px-a": true, "default/px-b": true, "default/px-c": true };
    expect(quietByKey(probe)).toEqual(quiet);
    expect(quietByKey(wire)).toEqual(quiet);
    expect(fromWire).toEqual(fromProbe);
  });
});
