/**
 * `loopscope proxy`'s dashboard, in process: its info says where the cluster is, its objects
 * snapshot claims nothing (so the page marks no Foo deleted), and its cluster actions reach the
 * cluster directly — the Foo they create is someone else's change, traced as the controller sees it.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApiServer } from "@loopscope/apiserver";
import {
  API,
  TOKEN_HEADER,
  type ClusterReachability,
  type ServerMessage,
  type ServerInfo,
} from "@loopscope/protocol";
import { StreamClient } from "../ws/stream-client.ts";
import { startProxyRun, type ProxyRun } from "./start-proxy.ts";
import { writeGoneKubeconfig } from "../testing/gone-kubeconfig.ts";

let dir: string | undefined;
let run: ProxyRun | undefined;

afterEach(async () => {
  await run?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("startProxyRun", () => {
  it("serves info and a snapshot that claims nothing, and acts on the cluster directly", async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-run-"));
    run = await startProxyRun({
      upstream: { kind: "embedded" },
      port: 0,
      dashboardPort: 0,
      webRoot: dir,
      runsDir: join(dir, "runs"),
      primaries: ["samplecontroller.k8s.io/Foo"],
    });
    const headers = { [TOKEN_HEADER]: run.dashboard.tokens.owner };
    const info = (await (
      await fetch(run.dashboard.url + API.info.slice(1), { headers })
    ).json()) as ServerInfo;
    expect(info).toMatchObject({ mode: "live", cluster: { kind: "embedded" }, scenarios: [] });
    const objects = await (
      await fetch(run.dashboard.url + API.objects.slice(1), { headers })
    ).json();
    expect(objects).toEqual({ atSeq: 0, objects: [] });

    const res = await fetch(run.dashboard.url + API.action.slice(1), {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ action: "createFoo", name: "from-the-page" }),
    });
    expect(res.status).toBe(200);
    const kubectl = await fetch(
      `${new URL(run.server).origin}/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos/from-the-page`,
    );
    expect(kubectl.status).toBe(200);
  });

  it("tells of a kubeconfig's cluster that stops answering, as `up` does: the listener, the page, the actions", async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-run-"));
    const api = await startApiServer();
    const kubeconfig = join(dir, "kubeconfig");
    await api.writeKubeconfig(kubeconfig);
    const told: ClusterReachability[] = [];
    run = await startProxyRun({
      upstream: { kind: "kubeconfig", path: kubeconfig },
      port: 0,
      dashboardPort: 0,
      webRoot: dir,
      runsDir: join(dir, "runs"),
      primaries: ["samplecontroller.k8s.io/Foo"],
      onReachability: (now) => told.push(now),
    });
    const heard: ClusterReachability[] = [];
    const page = new StreamClient({
      baseUrl: run.dashboard.url,
      token: run.dashboard.tokens.owner,
      onMessage: (m: ServerMessage) => {
        if (m.type === "reachability") heard.push(m.cluster);
      },
    });
    await page.connect();
    try {
      await vi.waitFor(() => expect(heard).toEqual([{ reachable: true }]), { timeout: 10_000 });
      await api.stop();
      // The probe asks every 3 s: a limit for a busy machine, not a speed claim.
      const wait = { timeout: 20_000, interval: 50 };
      await vi.waitFor(() => expect(told).toHaveLength(1), wait);
      expect(told[0]).toMatchObject({ reachable: false, server: api.url });
      await vi.waitFor(() => expect(heard.at(-1)).toEqual(told[0]), wait);
      const res = await fetch(run.dashboard.url + API.action.slice(1), {
        method: "POST",
        headers: {
          [TOKEN_HEADER]: run.dashboard.tokens.owner,
          "content-type": "application/json",
        },
        body: JSON.stringify({ action: "createFoo", name: "nowhere" }),
      });
      expect(res.status).toBe(503);
    } finally {
      page.cut();
    }
  });

  it("fronts the context it is given of a kubeconfig list ($KUBECONFIG=a:b), merged as kubectl merges it", async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-run-"));
    const api = await startApiServer();
    try {
      const path = join(dir, "kubeconfig");
      await api.writeKubeconfig(path);
      const ours = /current-context: (.*)/.exec(await readFile(path, "utf8"))![1]!.trim();
      // The first file names another cluster, and is current: --context picks ours from the second.
      const other = join(dir, "other");
      await writeGoneKubeconfig(other);
      run = await startProxyRun({
        upstream: { kind: "kubeconfig", path: `${other}${delimiter}${path}`, context: ours },
        port: 0,
        dashboardPort: 0,
        webRoot: dir,
        runsDir: join(dir, "runs"),
        primaries: [],
      });
      expect(run.upstreamConfig.getCurrentContext()).toBe(ours);
      expect(run.server).toBe(api.url);
      const version = await fetch(`${run.proxy.server.url}/version`);
      expect(version.status).toBe(200);
    } finally {
      await run?.stop();
      run = undefined;
      await api.stop();
    }
  });

  it("fails to start with one line for a kubeconfig it cannot read, and leaves no recording", async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-run-"));
    await expect(
      startProxyRun({
        upstream: { kind: "kubeconfig", path: join(dir, "missing") },
        port: 0,
        dashboardPort: 0,
        webRoot: dir,
        runsDir: join(dir, "runs"),
        primaries: [],
      }),
    ).rejects.toThrow(/^cannot read kubeconfig .*missing/);
    expect(existsSync(join(dir, "runs"))).toBe(false);
  });
});
