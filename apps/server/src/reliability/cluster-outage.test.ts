/**
 * The real `loopscope up --kubeconfig` while its cluster's API server goes away and comes back:
 * stderr says so once when it goes (the server's URL and why) however long it stays away, and
 * once when it is back; every dashboard client hears it as `reachability`, one that connects
 * during the outage too. The cluster is the embedded API server reached through a kubeconfig
 * file: stopped, then listening again on the same port; or behind a TCP relay that stops passing
 * bytes both ways, as a network that vanishes does (no error: open watches just fall silent).
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import type { ClusterReachability, ServerMessage } from "@loopscope/protocol";
import { StreamClient } from "../ws/stream-client.ts";
import { startUpProcess, type UpProcess } from "../testing/up-process.ts";
import { startTcpRelay, type TcpRelay } from "../testing/tcp-relay.ts";
// Generous limits for a busy 2-core machine, not speed claims.
const WAIT = { timeout: 30_000, interval: 50 };

let dir: string;
let api: ApiServer | undefined;
let child: ChildProcess | undefined;
let relay: TcpRelay | undefined;
const clients: StreamClient[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-outage-"));
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.cut();
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  relay?.close();
  relay = undefined;
  await api?.stop();
  api = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A dashboard client that keeps every `reachability` message it is sent. */
async function watcher(url: string, token: string): Promise<ClusterReachability[]> {
  const heard: ClusterReachability[] = [];
  const client = new StreamClient({
    baseUrl: url,
    token,
    onMessage: (m: ServerMessage) => {
      if (m.type === "reachability") heard.push(m.cluster);
    },
  });
  clients.push(client);
  await client.connect();
  return heard;
}

async function startUp(kubeconfig: string): Promise<UpProcess> {
  const up = await startUpProcess(kubeconfig, join(dir, "run.jsonl"), dir);
  child = up.child;
  return up;
}

it(
  "an API server that goes away is one stderr line and a dashboard state, its return another",
  { timeout: 150_000 },
  async () => {
    api = await startApiServer({ deploymentReadyDelayMs: 30 });
    const { port, url: server } = api;
    const kubeconfig = join(dir, "kubeconfig");
    await api.writeKubeconfig(kubeconfig);
    const up = await startUp(kubeconfig);
    // Said before the checks, which a silent cluster can make last 10 s.
    expect(up.stderr()).toMatch(
      new RegExp(
        `^loopscope: checking the cluster at ${server} \\(context loopscope-embedded\\)…$`,
        "m",
      ),
    );

    const before = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(before).toEqual([{ reachable: true }]), WAIT);

    await api.stop();
    api = undefined;
    const goneLine = new RegExp(
      `^loopscope: cluster ${server} unreachable since \\d\\d:\\d\\d:\\d\\d: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}; watching for it to come back$`,
      "m",
    );
    await vi.waitFor(() => expect(up.stderr()).toMatch(goneLine), WAIT);
    await vi.waitFor(() => expect(before).toHaveLength(2), WAIT);
    const down = before[1]!;
    expect(down).toEqual({
      reachable: false,
      server,
      error: `connect ECONNREFUSED 127.0.0.1:${port}`,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
    });

    // A page opened during the outage learns of it on connecting.
    const during = await watcher(up.dashboard, up.token);
    await vi.waitFor(() => expect(during).toEqual([down]), WAIT);

    // Down across several probes (every 3 s) and informer retries: still the one line.
    await new Promise((r) => setTimeout(r, 10_000));
    expect(up.stderr().match(/unreachable since/g)).toHaveLength(1);
    expect(before).toHaveLength(2);
    expect(during).toHaveLength(1);

    api = await startApiServer({ port, deploymentReadyDelayMs: 30 });
    await vi.waitFor(
      () =>
        expect(up.stderr()).toMatch(
          new RegExp(`^loopscope: cluster ${server} reachable again after \\d+ s$`, "m"),
        ),
      WAIT,
    );
    await vi.waitFor(() => expect(before.at(-1)).toEqual({ reachable: true }), WAIT);
    await vi.waitFor(() => expect(during.at(-1)).toEqual({ reachable: true }), WAIT);

    expect(await up.stop()).toBe(0);
    expect(up.stderr().match(/unreachable since/g)).toHaveLength(1);
    expect(up.stderr().match(/reachable again/g)).toHaveLength(1);
    expect(before).toHaveLength(3);
    expect(during).toHaveLength(2);
  },
);

/**
 * Creates a Foo straight on the API server (only a live watch can tell the controller of it) and
 * waits for the Deployment the controller makes for it.
 */
async function createFoo(name: string): Promise<void> {
  const created = await fetch(
    `${api!.url}/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        metadata: { name },
        spec: { deploymentName: name, replicas: 1 },
      }),
    },
  );
  expect(created.status).toBe(201);
  await vi.waitFor(async () => {
    const res = await fetch(`${api!.url}/apis/apps/v1/namespaces/default/deployments/${name}`);
    expect(res.status).toBe(200);
  }, WAIT);
}

/**
 * `up` on the embedded API server reached through a relay (see TcpRelay), with a dashboard
 * client that has heard the cluster is reachable.
 */
async function upBehindRelay() {
  api = await startApiServer({ deploymentReadyDelayMs: 30 });
  const net = (relay = await startTcpRelay(api.port));
  const server = `http://127.0.0.1:${net.port}`;
  const kubeconfig = join(dir, "kubeconfig");
  await api.writeKubeconfig(kubeconfig);
  await writeFile(kubeconfig, (await readFile(kubeconfig, "utf8")).replace(api.url, server));
  const up = await startUp(kubeconfig);
  const heard = await watcher(up.dashboard, up.token);
  await vi.waitFor(() => expect(heard).toEqual([{ reachable: true }]), WAIT);
  return { net, server, up, heard };
}

it(
  "a network that goes silent (no error, no answer) is noticed too, and its return",
  { timeout: 150_000 },
  async () => {
    const { net, server, up, heard } = await upBehindRelay();

    net.cut();
    await vi.waitFor(
      () =>
        expect(up.stderr()).toMatch(
          new RegExp(
            `^loopscope: cluster ${server} unreachable since \\d\\d:\\d\\d:\\d\\d: no answer within 3 s; watching for it to come back$`,
            "m",
          ),
        ),
      WAIT,
    );
    // The dashboard hears it over its WebSocket, a moment after stderr says it (a busy machine).
    await vi.waitFor(
      () =>
        expect(heard.at(-1)).toMatchObject({
          reachable: false,
          server,
          error: "no answer within 3 s",
        }),
      WAIT,
    );

    net.heal();
    await vi.waitFor(() => expect(up.stderr()).toMatch(/reachable again after \d+ s$/m), WAIT);
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ reachable: true }), WAIT);
    expect(await up.stop()).toBe(0);
    expect(up.stderr().match(/unreachable since/g)).toHaveLength(1);
    expect(up.stderr().match(/reachable again/g)).toHaveLength(1);
  },
);

it(
  "a watch held across an outage that never hears again is replaced once the cluster answers",
  { timeout: 150_000 },
  async () => {
    const { net, up } = await upBehindRelay();

    net.cut();
    await vi.waitFor(() => expect(up.stderr()).toMatch(/unreachable since/), WAIT);
    net.healNewOnly();
    await vi.waitFor(() => expect(up.stderr()).toMatch(/reachable again after \d+ s$/m), WAIT);

    await createFoo("after-outage");

    expect(await up.stop()).toBe(0);
    // The trace says why the watches opened again.
    const trace = await readFile(join(dir, "run.jsonl"), "utf8");
    for (const kind of ["Foo", "Deployment"])
      expect(trace).toContain(
        `the ${kind} informer's watch is replaced (the cluster answers again`,
      );
  },
);

it(
  "a write sent as the network went silent is abandoned once the cluster answers: its pass is retried, and Ctrl-C stops at once",
  { timeout: 150_000 },
  async () => {
    const { net, up } = await upBehindRelay();
    // The status update reaches the server, which holds it 3 s: the network goes meanwhile, and
    // its answer never comes back over the connection it was sent on.
    api!.faults.setLatency("update", 3000);
    await createFoo("in-flight");
    await new Promise((r) => setTimeout(r, 500));
    net.cut();
    api!.faults.setLatency("update", 0);
    await vi.waitFor(() => expect(up.stderr()).toMatch(/unreachable since/), WAIT);
    net.healNewOnly();
    await vi.waitFor(() => expect(up.stderr()).toMatch(/reachable again after \d+ s$/m), WAIT);

    // The retried pass writes the status anew.
    const passesEnded = () =>
      readFile(join(dir, "run.jsonl"), "utf8").then((t) =>
        t
          .split("\n")
          .filter((l) => l.includes('"stage":"done"') && l.includes("default/in-flight"))
          .map((l) => JSON.parse(l) as { outcome: string; error?: string }),
      );
    await vi.waitFor(
      async () => expect((await passesEnded()).some((d) => d.outcome === "synced")).toBe(true),
      WAIT,
    );
    // A live controller is stopped at once, not after the pass that waited for good.
    expect(await up.stop()).toBe(0);
    expect(await passesEnded()).toContainEqual(
      expect.objectContaining({
        outcome: "requeued",
        error:
          "no answer came before the cluster's outage ended, and its connection may be dead: abandoned",
      }),
    );
  },
);
