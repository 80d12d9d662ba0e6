/**
 * The real `loopscope up` while the Foo CRD is deleted under it and created again — on the
 * embedded cluster and on a kubeconfig's: stderr says once that the Foo API is gone (however many
 * times the Foo informer retries meanwhile) and once that it is back; every dashboard client hears
 * it as `fooApi`; and a Foo created after the CRD is back is reconciled.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { FOO_CRD, startApiServer, type ApiServer } from "@loopscope/apiserver";
import type { FooApiPresence, ServerMessage } from "@loopscope/protocol";
import { StreamClient } from "../ws/stream-client.ts";
import { spawnUp, type UpProcess } from "../testing/up-process.ts";
// Generous limits for a busy 2-core machine, not speed claims.
const WAIT = { timeout: 60_000, interval: 50 };
const CRD = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";

let dir: string;
let api: ApiServer | undefined;
let child: ChildProcess | undefined;
const clients: StreamClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-crd-gone-"));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.cut();
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await api?.stop();
  api = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A dashboard client that keeps every `fooApi` message it is sent. */
async function watcher(url: string, token: string): Promise<FooApiPresence[]> {
  const heard: FooApiPresence[] = [];
  const client = new StreamClient({
    baseUrl: url,
    token,
    onMessage: (m: ServerMessage) => {
      if (m.type === "fooApi") heard.push(m.fooApi);
    },
  });
  clients.push(client);
  await client.connect();
  return heard;
}

async function send(base: string, method: string, path: string, body?: unknown) {
  return fetch(base + path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The Foo informer's failures so far, as the run's trace notes them. */
async function fooInformerFailures(record: string): Promise<number> {
  const text = await readFile(record, "utf8");
  return text.split("\n").filter((l) => /the Foo informer's (watch|list) failed/.test(l)).length;
}

const GONE =
  "loopscope: the Foo API (foos.samplecontroller.k8s.io) is gone from the cluster — was the CRD deleted? loopscope keeps retrying; kubectl apply -f public/manifests/crd.yaml brings it back";
const BACK =
  "loopscope: the Foo API (foos.samplecontroller.k8s.io) is back: the controller lists and watches Foos again";

/** How many of up's stderr lines are `line`. */
const times = (up: UpProcess, line: string) =>
  up
    .stderr()
    .split("\n")
    .filter((l) => l === line).length;

it.each(["embedded", "kubeconfig"] as const)(
  "the Foo CRD deleted under `up` (%s) is one stderr line and a dashboard state, its return another",
  { timeout: 150_000 },
  async (cluster) => {
    const record = join(dir, "run.jsonl");
    let up: UpProcess;
    if (cluster === "kubeconfig") {
      api = await startApiServer({ deploymentReadyDelayMs: 30 });
      await api.writeKubeconfig(join(dir, "kubeconfig"));
      up = await spawnUp(["--kubeconfig", join(dir, "kubeconfig"), "--record", record], dir);
    } else {
      up = await spawnUp(["--record", record], dir);
    }
    child = up.child;
    const base = /server: "?([^"\s]+)/.exec(await readFile(up.kubeconfig, "utf8"))![1]!;
    const heard = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(heard).toEqual([{ served: true }]), WAIT);

    expect((await send(base, "DELETE", `${CRD}/${FOO_CRD.metadata.name}`)).status).toBe(200);
    await vi.waitFor(() => expect(times(up, GONE)).toBe(1), WAIT);
    await vi.waitFor(() => expect(heard).toHaveLength(2), WAIT);
    expect(heard[1]).toEqual({
      served: false,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
    });
    // A page opened while it is gone learns of it on connecting.
    const during = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(during).toEqual([heard[1]]), WAIT);
    // Several retries, each a 404: still the one line.
    await vi.waitFor(
      async () => expect(await fooInformerFailures(record)).toBeGreaterThan(3),
      WAIT,
    );
    expect(times(up, GONE)).toBe(1);

    expect((await send(base, "POST", CRD, FOO_CRD)).status).toBe(201);
    await vi.waitFor(() => expect(times(up, BACK)).toBe(1), WAIT);
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ served: true }), WAIT);
    await vi.waitFor(() => expect(during.at(-1)).toEqual({ served: true }), WAIT);

    // The controller works again: a Foo created now gets its Deployment.
    const foo = {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "after" },
      spec: { deploymentName: "after", replicas: 1 },
    };
    expect((await send(base, "POST", FOOS, foo)).status).toBe(201);
    await vi.waitFor(async () => {
      const res = await send(base, "GET", "/apis/apps/v1/namespaces/default/deployments/after");
      expect(res.status).toBe(200);
    }, WAIT);

    expect(await up.stop()).toBe(0);
    expect(times(up, GONE)).toBe(1);
    expect(times(up, BACK)).toBe(1);
    expect(heard).toHaveLength(3);
    expect(during).toHaveLength(2);
  },
);
