/**
 * The stream's heartbeat against a client that answers pings it never saw, over real sockets:
 * WebSocket pongs may be sent unasked, so a client that reads nothing could keep its connection
 * (and what the server queues for it) alive by sending them. Only a pong that echoes the server's
 * ping counts; a client that reads and answers as browsers do stays connected.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { API } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import { StreamClient } from "../ws/stream-client.ts";
import { startDashboardServer, type DashboardServer } from "../dashboard/dashboard-server.ts";
import { hubBackend } from "../dashboard/testing.ts";

const HEARTBEAT_MS = 100;

let dir: string;
let hub: TraceHub;
let server: DashboardServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-heartbeat-"));
  hub = new TraceHub();
  server = await startDashboardServer({
    backend: hubBackend(hub, dir),
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
    share: true,
    heartbeatMs: HEARTBEAT_MS,
  });
});

afterAll(async () => {
  await server.close();
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

it("unasked pongs do not keep a client alive; a client that answers the pings stays", async () => {
  const reader = new StreamClient({ baseUrl: server.url, token: server.tokens.owner });
  await reader.connect();
  // Answers no ping: sends empty pongs of its own, far more often than the server pings.
  const faker = new WebSocket(
    `ws://127.0.0.1:${server.port}${API.ws}?token=${server.tokens.share}`,
    {
      autoPong: false,
    },
  );
  await new Promise(
    (resolve, reject) => (faker.once("open", resolve), faker.once("error", reject)),
  );
  const closed = new Promise<number>((resolve) => faker.once("close", (code) => resolve(code)));
  const pongs = setInterval(() => faker.readyState === WebSocket.OPEN && faker.pong(), 5);
  try {
    let pings = 0;
    faker.on("ping", () => pings++);
    // Cut off (terminated: 1006 on this end) within a few heartbeats.
    expect(await vi.waitFor(() => closed, { timeout: 100 * HEARTBEAT_MS })).toBe(1006);
    expect(pings).toBeGreaterThan(0);
    // The reader, which answered every ping, was kept and still streams.
    hub.push({ stage: "enqueue", ts: 1, key: "a/b" });
    await reader.waitFor(hub.lastSeq);
    expect(server.stream.clients).toBe(1);
  } finally {
    clearInterval(pongs);
    faker.terminate();
    await reader.close();
  }
});
