/**
 * The proxy in front of the real embedded API server, with real clients: client-node informers,
 * kubectl (JSON and protobuf bodies), raw HTTP watches. What it forwards must be what a client
 * would have got directly; what it records, what went by.
 */
import { spawn, execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { startProxyServer, type ProxyServer } from "./proxy-server.ts";
import { upstreamFor } from "./upstream.ts";
import type { WireObservation } from "./wire.ts";

const GROUP = "samplecontroller.k8s.io";
const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";
const run = promisify(execFile);

let api: ApiServer;
let proxy: ProxyServer;
let dir: string;
let proxyKubeconfig: string;
const seen: WireObservation[] = [];

function kubeConfigOf(yaml: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(yaml);
  return kc;
}

beforeAll(async () => {
  api = await startApiServer({ port: 0, deploymentReadyDelayMs: 50 });
  proxy = await startProxyServer({
    upstream: upstreamFor(kubeConfigOf(api.kubeconfigYaml())),
    onObservation: (o) => seen.push(o),
  });
  dir = await mkdtemp(join(tmpdir(), "loopscope-proxy-test-"));
  proxyKubeconfig = join(dir, "kubeconfig");
  await writeFile(proxyKubeconfig, proxy.kubeconfigYaml(), { mode: 0o600 });
});

afterAll(async () => {
  await proxy?.close();
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(what: string, f: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A raw GET through the proxy; resolves with the response (body left to the caller). */
function get(path: string, headers: http.OutgoingHttpHeaders = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get(proxy.url + path, {
      headers,
    });
    req.on("response", resolve);
    req.on("error", reject);
  });
}

const body = (res: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let s = "";
    res.setEncoding("utf8");
    res.on("data", (c: string) => (s += c));
    res.on("end", () => resolve(s));
    res.on("error", reject);
  });

describe("loopscope proxy", () => {
  it("serves a client-node informer and records its list, its watch events and the writes", async () => {
    const kc = kubeConfigOf(proxy.kubeconfigYaml());
    const co = kc.makeApiClient(k8s.CustomObjectsApi);
    const informer = k8s.makeInformer<k8s.KubernetesObject>(
      kc,
      FOOS,
      () =>
        co.listNamespacedCustomObject({
          group: GROUP,
          version: "v1alpha1",
          namespace: "default",
          plural: "foos",
        }) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>,
    );
    const log: string[] = [];
    informer.on(k8s.ADD, (o) => log.push(`add ${o.metadata?.name}`));
    informer.on(k8s.UPDATE, (o) => log.push(`update ${o.metadata?.name}`));
    await informer.start();
    const created = (await co.createNamespacedCustomObject({
      group: GROUP,
      version: "v1alpha1",
      namespace: "default",
      plural: "foos",
      body: {
        apiVersion: `${GROUP}/v1alpha1`,
        kind: "Foo",
        metadata: { name: "inf-a" },
        spec: { deploymentName: "inf-a", replicas: 1 },
      },
    })) as k8s.KubernetesObject;
    await until("the informer's add", () => log.includes("add inf-a"));
    await informer.stop();
    expect(seen.some((o) => o.type === "list")).toBe(true);
    const add = seen.find((o) => o.type === "watch" && o.object.name === "inf-a");
    expect(add).toMatchObject({
      event: "ADDED",
      object: { kind: "Foo", group: GROUP, rv: created.metadata?.resourceVersion },
    });
    const write = seen.find((o) => o.type === "write" && o.request.verb === "create");
    expect(write).toMatchObject({
      code: 201,
      object: { name: "inf-a", rv: created.metadata?.resourceVersion },
    });
  });

  it("keeps real `kubectl get -w` working (protobuf bodies too) and leaves kubectl's requests unrecorded", async () => {
    const before = seen.length;
    const env = { ...process.env, KUBECONFIG: proxyKubeconfig };
    const watcher = spawn("kubectl", ["get", "foos", "-w", "--no-headers"], { env });
    let out = "";
    watcher.stdout.on("data", (c: Buffer) => (out += c.toString()));
    let err = "";
    watcher.stderr.on("data", (c: Buffer) => (err += c.toString()));
    try {
      await until("kubectl's first listing", () => out.includes("inf-a"), 20_000);
      await writeFile(
        join(dir, "foo.yaml"),
        `apiVersion: ${GROUP}/v1alpha1\nkind: Foo\nmetadata:\n  name: kw-b\nspec:\n  deploymentName: kw-b\n  replicas: 1\n`,
      );
      await run("kubectl", ["apply", "-f", join(dir, "foo.yaml")], { env });
      // `kubectl create deployment` sends its body as protobuf: it must pass untouched.
      await run("kubectl", ["create", "deployment", "kw-deploy", "--image=nginx"], { env });
      await until("the watch to show the new Foo", () => out.includes("kw-b"), 20_000);
    } finally {
      watcher.kill();
    }
    expect(err).not.toMatch(/error/i);
    const { stdout } = await run("kubectl", ["get", "deployment", "kw-deploy", "-o", "name"], {
      env,
    });
    expect(stdout.trim()).toBe("deployment.apps/kw-deploy");
    expect(seen.slice(before).filter((o) => o.type !== "watch")).toEqual([]);
  });

  it("passes a dropped upstream watch on as a dropped watch", async () => {
    const res = await get(`${FOOS}?watch=true`);
    expect(res.statusCode).toBe(200);
    const ended = new Promise<string>((resolve) => {
      res.on("end", () => resolve("end"));
      res.on("close", () => resolve("close"));
      res.on("error", () => resolve("error"));
      res.resume();
    });
    await until("the upstream watch", () => api.activeWatches() > 0);
    api.faults.closeAllWatches();
    expect(await ended).toMatch(/end|close|error/);
  });

  it("drops the client's watch when the upstream connection is cut mid-stream", async () => {
    // A TCP relay in front of the API server, cut without a goodbye: what a network failure,
    // or an API server killed, looks like to the proxy.
    const cut = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const server = net.connect(api.port, "127.0.0.1");
      client.pipe(server).pipe(client);
      cut.add(client).add(server);
      client.on("error", () => {});
      server.on("error", () => {});
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
    const relayKc = kubeConfigOf(
      api
        .kubeconfigYaml()
        .replace(api.url, `http://127.0.0.1:${(relay.address() as net.AddressInfo).port}`),
    );
    const cutProxy = await startProxyServer({
      upstream: upstreamFor(relayKc),
      onObservation: () => {},
    });
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${cutProxy.url}${FOOS}?watch=true`, resolve).on("error", reject),
      );
      expect(res.statusCode).toBe(200);
      const dropped = new Promise<boolean>((resolve) => {
        res.on("close", () => resolve(res.complete));
        res.on("error", () => {});
        res.resume();
      });
      await until("the upstream watch", () => api.activeWatches() > 0);
      for (const s of cut) s.destroy();
      // Not a clean end (that would tell the client the server closed the watch on purpose).
      expect(await dropped).toBe(false);
    } finally {
      await cutProxy.close();
      relay.close();
    }
  });

  it("forwards an upstream refusal as it came, and refuses strangers itself", async () => {
    const missing = await get(`${FOOS}/no-such-foo`);
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(await body(missing))).toMatchObject({ kind: "Status", reason: "NotFound" });
    const rebinding = await get(FOOS, { host: `evil.example:${proxy.port}` });
    expect(rebinding.statusCode).toBe(403);
    await body(rebinding);
    const browser = await get(FOOS, { origin: "https://evil.example" });
    expect(browser.statusCode).toBe(403);
    await body(browser);
  });

  it("answers an offer of HTTP/2 over HTTP/1.1, and refuses exec's stream upgrade", async () => {
    // The JDK's client offers h2c on every plain-HTTP request: each one got the 501 for exec.
    const h2c = await get(`${FOOS}/no-such-foo`, {
      connection: "Upgrade, HTTP2-Settings",
      upgrade: "h2c",
      "http2-settings": "AAMAAABkAAQAoAAAAAIAAAAA",
    });
    expect(h2c.statusCode).toBe(404);
    expect(JSON.parse(await body(h2c))).toMatchObject({ kind: "Status", reason: "NotFound" });
    const exec = await get("/api/v1/namespaces/default/pods/p/exec?command=sh", {
      connection: "Upgrade",
      upgrade: "SPDY/3.1",
    });
    expect(exec.statusCode).toBe(501);
    expect(JSON.parse(await body(exec))).toMatchObject({
      message: "loopscope proxy: does not forward exec, attach or port-forward",
    });
  });
});
