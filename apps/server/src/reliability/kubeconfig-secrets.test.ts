/**
 * No kubeconfig credential leaks: `loopscope up --kubeconfig FILE` against an API server (the
 * embedded one, started here) with a kubeconfig whose user carries a bearer token and client
 * certificate and key data. After a Foo is created from the dashboard, none of those secrets —
 * raw or base64 — appears in the page, any /api response, the WebSocket stream, the recorded
 * trace, or the CLI's stdout and stderr.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startApiServer, type ApiServer } from "@loopscope/apiserver";
import { API, TOKEN_HEADER } from "@loopscope/protocol";
import { startUpProcess } from "../testing/up-process.ts";

const BEARER = "sekrit-bearer-7f3a9c1e5b2d4f60";
const CERT =
  "-----BEGIN CERTIFICATE-----\nMIIsekritCERTmarker0123456789\n-----END CERTIFICATE-----\n";
const KEY =
  "-----BEGIN PRIVATE KEY-----\nMIIsekritKEYmarker9876543210\n-----END PRIVATE KEY-----\n";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const SECRETS = [BEARER, "sekritCERTmarker", "sekritKEYmarker", b64(CERT), b64(KEY)];

let dir: string;
let api: ApiServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-secrets-"));
  api = await startApiServer({ deploymentReadyDelayMs: 20 });
});
afterAll(async () => {
  await api.stop();
  await rm(dir, { recursive: true, force: true });
});

it(
  "no bearer token or client certificate data in any response, trace, log or the page",
  { timeout: 150_000 },
  async () => {
    const kc = parse(api.kubeconfigYaml()) as { users: { user: Record<string, string> }[] };
    for (const u of kc.users) {
      u.user.token = BEARER;
      u.user["client-certificate-data"] = b64(CERT);
      u.user["client-key-data"] = b64(KEY);
    }
    const kubeconfig = join(dir, "kubeconfig");
    await writeFile(kubeconfig, stringify(kc));
    const record = join(dir, "run.jsonl");
    const up = await startUpProcess(kubeconfig, record, dir);
    const seen: string[] = [];
    try {
      const { dashboard: url, page, token } = up;
      seen.push(page);
      const ws = new WebSocket(
        `${url.replace(/^http/, "ws").replace(/\/$/, "")}${API.ws}?token=${token}`,
      );
      ws.on("message", (d) => seen.push(d.toString()));
      await new Promise((r) => ws.once("open", r));
      ws.send(JSON.stringify({ type: "resume", since: 0 }));
      const headers = { [TOKEN_HEADER]: token };
      const act = await fetch(new URL(API.action, url), {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ action: "createFoo", name: "secret-check", replicas: 1 }),
      });
      seen.push(await act.text());
      expect(act.status).toBe(200);
      await vi.waitFor(() => expect(seen.join("")).toContain('"outcome":"synced"'), {
        timeout: 30_000,
      });
      for (const path of [API.info, API.objects, API.trace, API.runs])
        seen.push(await (await fetch(new URL(path, url), { headers })).text());
      seen.push(await (await fetch(new URL("/metrics", url))).text());
      ws.close();
      await up.stop();
      seen.push(up.stdout(), up.stderr(), await readFile(record, "utf8"));
      const all = seen.join("\n");
      const found = SECRETS.filter((s) => all.includes(s));
      console.log(
        `kubeconfig secrets: searched ${seen.length} outputs (${(all.length / 1024).toFixed(0)} KiB) for ${SECRETS.length} secrets: ${found.length} found`,
      );
      expect(all).toContain("secret-check"); // the search covers real output
      expect(found).toEqual([]);
    } finally {
      up.kill();
    }
  },
);
