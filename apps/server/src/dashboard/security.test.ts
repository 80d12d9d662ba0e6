import { request } from "node:http";
import { connect } from "node:net";
import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API, TOKEN_HEADER, TOKEN_META, type ServerMessage } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import { startDashboardServer, type DashboardServer } from "./dashboard-server.ts";
import { hubBackend, type HubBackend } from "./testing.ts";

let dir: string;
let server: DashboardServer;
let backend: HubBackend;
let origin: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-sec-"));
  const web = join(dir, "web");
  await mkdir(join(web, "assets"), { recursive: true });
  await writeFile(
    join(web, "index.html"),
    "<!doctype html><html><head><title>t</title></head></html>",
  );
  await writeFile(join(web, "assets", "app.js"), "console.log(1)");
  await writeFile(join(dir, "secret.txt"), "do not serve");
  await mkdir(join(dir, "runs"));
  await writeFile(join(dir, "runs", "good-run.jsonl"), '{"loopscope":"trace"}\n');
  await symlink(join(dir, "secret.txt"), join(dir, "runs", "escape.jsonl"));
  backend = hubBackend(new TraceHub(), join(dir, "runs"));
  server = await startDashboardServer({
    backend,
    host: "127.0.0.1",
    port: 0,
    webRoot: web,
    share: true,
  });
  origin = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  body: string;
  type?: string;
  location?: string;
}

function http(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          type: res.headers["content-type"],
          location: res.headers.location,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const action = JSON.stringify({ action: "createFoo", name: "example-foo", replicas: 1 });
const post = (headers: Record<string, string>, body = action) =>
  http("POST", API.action, { "content-type": "application/json", ...headers }, body);

function upgrade(
  query: string,
  headers: Record<string, string> = {},
): Promise<number | ServerMessage> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${API.ws}${query}`, { headers });
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("message", (data) => {
      resolve(JSON.parse(data.toString()) as ServerMessage);
      ws.close();
    });
    ws.once("error", () => {});
  });
}

describe("security", () => {
  it("POST: owner token and own Origin acts; foreign Origin, no token, share token → 403", async () => {
    const owner = server.tokens.owner;
    expect((await post({ [TOKEN_HEADER]: owner, origin })).status).toBe(200);
    expect((await post({ [TOKEN_HEADER]: owner })).status).toBe(200);
    expect((await post({ [TOKEN_HEADER]: owner, origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ [TOKEN_HEADER]: owner, origin: "http://localhost:1" })).status).toBe(403);
    expect((await post({ origin })).status).toBe(403);
    expect((await post({ [TOKEN_HEADER]: "wrong", origin })).status).toBe(403);
    const share = await post({ [TOKEN_HEADER]: server.tokens.share!, origin });
    expect(share.status).toBe(403);
    expect(share.body).toContain("read-only");
    expect(backend.acted).toHaveLength(2);
  });

  it("GET /api: a foreign Origin → 403 even with a token; its own Origin, or none, reads", async () => {
    for (const token of [server.tokens.owner, server.tokens.share!]) {
      const read = (extra: Record<string, string>) =>
        http("GET", API.info, { [TOKEN_HEADER]: token, ...extra });
      expect((await read({})).status).toBe(200);
      expect((await read({ origin })).status).toBe(200);
      const foreign = await read({ origin: "http://evil.example" });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toContain("foreign Origin");
    }
  });

  it("WebSocket: foreign Origin or missing/wrong token → 403; share token watches read-only", async () => {
    const owner = server.tokens.owner;
    expect(await upgrade(`?token=${owner}`, { origin: "http://evil.example" })).toBe(403);
    expect(await upgrade("")).toBe(403);
    expect(await upgrade("?token=nope", { origin })).toBe(403);
    expect(await upgrade(`?token=${owner}`, { origin })).toMatchObject({
      type: "hello",
      info: { readOnly: false },
    });
    expect(await upgrade(`?token=${server.tokens.share}`, { origin })).toMatchObject({
      type: "hello",
      info: { readOnly: true },
    });
  });

  it("refuses a Host that is not ours (DNS rebinding), even for the page", async () => {
    const res = await http("GET", "/", { host: `evil.example:${server.port}` });
    expect(res.status).toBe(403);
    expect(res.body).not.toContain(server.tokens.owner);
  });

  it("reads need a token; the share token reads", async () => {
    expect((await http("GET", API.info)).status).toBe(403);
    const info = await http("GET", API.info, { [TOKEN_HEADER]: server.tokens.share! });
    expect(info.status).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({ readOnly: true, mode: "live" });
  });

  it("injects the owner token only into index.html for a loopback client; share page gets the share token", async () => {
    const page = await http("GET", "/");
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain(`<meta name="${TOKEN_META}" content="${server.tokens.owner}">`);
    const shared = await http("GET", `/?share=${server.tokens.share}`);
    expect(shared.body).toContain(`content="${server.tokens.share}"`);
    expect(shared.body).not.toContain(server.tokens.owner);
    const badShare = await http("GET", "/?share=guess");
    expect(badShare.body).not.toContain(server.tokens.owner);
    // Any other page path goes to the one page, query kept (its assets are relative).
    const elsewhere = await http("GET", `/no/such/page?share=${server.tokens.share}`);
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.location).toBe(`/?share=${server.tokens.share}`);
    expect(elsewhere.body).not.toContain(server.tokens.owner);
    const js = await http("GET", "/assets/app.js");
    expect(js.type).toMatch(/^text\/javascript/);
    expect(js.body).not.toContain(server.tokens.owner);
  });

  it("never serves files outside the web root or the runs folder", async () => {
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/assets/..%2f..%2fsecret.txt"]) {
      const res = await http("GET", path);
      expect(res.body).not.toContain("do not serve");
    }
    const t = { [TOKEN_HEADER]: server.tokens.owner };
    expect((await http("GET", `${API.runs}/good-run.jsonl`, t)).status).toBe(200);
    expect((await http("GET", `${API.runs}/..%2Fsecret.txt`, t)).status).toBe(404);
    expect((await http("GET", `${API.runs}/escape.jsonl`, t)).status).toBe(404);
    const runs = JSON.parse((await http("GET", API.runs, t)).body) as { name: string }[];
    expect(runs.map((r) => r.name)).toEqual(["good-run.jsonl"]);
  });

  it("limits request bodies and rejects malformed actions", async () => {
    const t = { [TOKEN_HEADER]: server.tokens.owner, origin };
    const huge = JSON.stringify({ action: "applyManifest", yaml: "a".repeat(2 * 1024 * 1024) });
    expect((await post(t, huge)).status).toBe(413);
    expect((await post(t, "{nope")).status).toBe(400);
    expect((await post(t, JSON.stringify({ action: "createFoo", name: "../x" }))).status).toBe(400);
  });

  it("binds loopback only by default", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && !a.address.startsWith("fe80:"))
      .map((a) => a!.address);
    for (const address of others) {
      const reached = await new Promise<boolean>((resolve) => {
        const s = connect({ host: address, port: server.port });
        s.once("connect", () => (s.destroy(), resolve(true)));
        s.once("error", () => resolve(false));
      });
      expect(reached, `reachable on ${address}`).toBe(false);
    }
    const page = await http("GET", "/");
    expect(page.status).toBe(200);
  });
});

describe("listening", () => {
  it("says plainly when the port is taken", async () => {
    await expect(
      startDashboardServer({ backend, host: "127.0.0.1", port: server.port, webRoot: dir }),
    ).rejects.toThrow(/port \d+ on 127\.0\.0\.1 is already in use.*--port/);
  });
});
