/**
 * A kubeconfig's cluster behind TLS with a client certificate and a bearer token: the proxy must
 * reach it with that kubeconfig's credentials — the CA it names, its client certificate, its token
 * — and never pass on what its own client sent. The cluster is the embedded API server behind a
 * TLS front that demands all three (certificates made with openssl for this test).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { startProxyServer, type ProxyServer } from "./proxy-server.ts";
import { upstreamFor } from "./upstream.ts";

const TOKEN = "kubeconfig-token-1234";
const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const openssl = hasOpenssl();
if (!openssl)
  console.warn("\n*** openssl NOT FOUND: the proxy's TLS upstream test is SKIPPED ***\n");

let dir: string;
let api: ApiServer;
let front: https.Server;
let proxy: ProxyServer;
/** What reached the cluster: each request's Authorization header and client certificate's CN. */
const seen: { auth?: string; cn?: string }[] = [];

function certs(): Record<string, string> {
  const run = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const ca =
    "req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 1 -subj /CN=test-ca";
  run(ca.split(" "));
  for (const [name, subj, ext] of [
    ["server", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"],
    ["client", "/CN=controller-user", "extendedKeyUsage=clientAuth"],
  ]) {
    run(
      `req -newkey rsa:2048 -nodes -keyout ${name}.key -out ${name}.csr -subj ${subj}`.split(" "),
    );
    const sign = `x509 -req -in ${name}.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out ${name}.crt -days 1 -extfile ${name}.ext`;
    writeFileSync(join(dir, `${name}.ext`), ext + "\n");
    run(sign.split(" "));
  }
  return Object.fromEntries(
    ["ca.crt", "server.key", "server.crt", "client.key", "client.crt"].map((f) => [
      f,
      readFileSync(join(dir, f), "utf8"),
    ]),
  );
}

describe.runIf(openssl)("the proxy in front of a TLS cluster", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "loopscope-proxy-tls-"));
    const c = certs();
    api = await startApiServer({ port: 0 });
    front = https.createServer(
      {
        key: c["server.key"],
        cert: c["server.crt"],
        ca: c["ca.crt"],
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        const cn = (req.socket as import("node:tls").TLSSocket).getPeerCertificate().subject?.CN as
          string | undefined;
        seen.push({ auth: req.headers.authorization, cn });
        if (req.headers.authorization !== `Bearer ${TOKEN}`) {
          res.writeHead(401).end();
          return;
        }
        const up = http.request(api.url + req.url, {
          method: req.method,
          headers: { ...req.headers, host: new URL(api.url).host },
        });
        up.on("response", (ur) => {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
        });
        req.pipe(up);
      },
    );
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [
        {
          name: "tls",
          server: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
          caData: b64(c["ca.crt"]),
        },
      ],
      users: [
        { name: "u", token: TOKEN, certData: b64(c["client.crt"]), keyData: b64(c["client.key"]) },
      ],
      contexts: [{ name: "tls", cluster: "tls", user: "u" }],
      currentContext: "tls",
    });
    proxy = await startProxyServer({ upstream: upstreamFor(kc), onObservation: () => {} });
  });

  afterAll(async () => {
    await proxy?.close();
    front?.close();
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reaches the cluster with the kubeconfig's CA, client certificate and token, not the client's", async () => {
    const res = await fetch(proxy.url + FOOS, {
      headers: { authorization: "Bearer not-this-one" },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { kind: string }).kind).toBe("FooList");
    expect(seen.at(-1)).toEqual({ auth: `Bearer ${TOKEN}`, cn: "controller-user" });
  });
});
