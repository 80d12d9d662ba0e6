/**
 * DNS rebinding: a request whose Host is a name other than a loopback one, an IP literal or the
 * listen address gets 403 before anything is read or written — discovery, lists, watches and
 * writes alike. Sent over real HTTP with the Host header a rebinding page's browser would send.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../index.ts";
import { FOOS, RawClient } from "../testing/raw-client.ts";
import { hostAllowed } from "./host-check.ts";

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.stop());

function send(
  method: string,
  path: string,
  host: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method,
        path,
        headers: { Host: host, "Content-Type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const foo = JSON.stringify({
  apiVersion: "samplecontroller.k8s.io/v1alpha1",
  kind: "Foo",
  metadata: { name: "rebound" },
  spec: { deploymentName: "rebound", replicas: 1 },
});

describe("Host header", () => {
  it("refuses a foreign name on every kind of request, and writes nothing", async () => {
    const evil = `rebind.evil.example:${server.port}`;
    for (const [method, path] of [
      ["GET", "/version"],
      ["GET", "/apis"],
      ["GET", FOOS],
      ["GET", `${FOOS}?watch=true`],
      ["POST", FOOS],
    ] as const) {
      const r = await send(method, path, evil, method === "POST" ? foo : undefined);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(r.text)).toMatchObject({
        kind: "Status",
        reason: "Forbidden",
        message: expect.stringContaining(`Host "${evil}" is not this server`),
      });
    }
    const list = await new RawClient(server.url).get<{ items: unknown[] }>(FOOS);
    expect(list.body.items).toEqual([]);
  });

  it("answers loopback names and IP literals, with or without the port", async () => {
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      `LOCALHOST:${server.port}`,
      `[::1]:${server.port}`,
      "127.0.0.1",
      `10.1.2.3:${server.port}`,
    ]) {
      expect((await send("GET", "/version", host)).status, host).toBe(200);
    }
  });

  it("tells names apart by the whole name", () => {
    for (const host of [
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      "evil.example@127.0.0.1",
      "",
      "a b",
      undefined,
    ]) {
      expect(hostAllowed(host, "127.0.0.1"), String(host)).toBe(false);
    }
    expect(hostAllowed("devbox:6443", "devbox")).toBe(true);
    expect(hostAllowed("devbox:6443", "127.0.0.1")).toBe(false);
  });
});
