/**
 * Clients that send without reading, over real sockets: a WebSocket whose socket is paused (it
 * reads nothing) sends hundreds of thousands of tiny messages, each of which asks for a reply —
 * the owner's token and the share link's alike. The server must hold what it queues for that
 * client to its high water (the server's own per-client accounting, `peakBuffered`), as it does
 * for `events`, and close a client that goes on sending without reading (1008).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API } from "@loopscope/protocol";
import { TraceHub } from "../hub/trace-hub.ts";
import { startDashboardServer, type DashboardServer } from "../dashboard/dashboard-server.ts";
import { hubBackend } from "../dashboard/testing.ts";

const HIGH_WATER = 64 * 1024;
/** What the server may queue for one client: its high water and one small reply past it. */
const BOUND = HIGH_WATER + 1024;
// Far more replies than the kernel's socket buffers on both ends absorb (a few MB on loopback),
// so that what is left queues in the server's process.
const FRAMES = 600_000;

let dir: string;
let hub: TraceHub;
let server: DashboardServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-unread-"));
  hub = new TraceHub();
  server = await startDashboardServer({
    backend: hubBackend(hub, dir),
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
    share: true,
    tuning: { batchMs: 5, batchEvents: 200, highWater: HIGH_WATER, maxLag: 100 },
  });
});

afterEach(async () => {
  await server.close();
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

interface Flooded {
  close?: { code: number; reason: string };
  /** Frames sent before the server closed the client or queued past BOUND for it. */
  sent: number;
  messages: number;
}

/**
 * From a socket that reads nothing, sends `text` in rounds until the server closed this client
 * for not reading (its own count), or queued more than BOUND for it, or `frames` were sent; each
 * round waits until the server has read the last (the client's buffer empty, the server's count
 * or buffer checked). Then reads again and pings until the server answers or the close arrives.
 */
async function flood(token: string, text: string, frames: number): Promise<Flooded> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}${API.ws}?token=${token}`);
  await new Promise((resolve, reject) => (ws.once("open", resolve), ws.once("error", reject)));
  const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  const result: Flooded = { sent: 0, messages: 0 };
  let ponged = false;
  ws.on("message", (data) => {
    result.messages++;
    if (data.toString() === '{"type":"pong","t":-1}') ponged = true;
  });
  const closed = new Promise<void>((resolve) =>
    ws.once("close", (code, reason) => {
      result.close = { code, reason: reason.toString() };
      resolve();
    }),
  );
  const done = () => server.stream.unreadClosed() > 0 || server.stream.peakBuffered() > BOUND;
  for (; result.sent < frames && !done(); result.sent += 10_000) {
    for (let i = 0; i < 10_000; i++) ws.send(text);
    while (ws.bufferedAmount > 0) await new Promise((r) => setTimeout(r, 5));
  }
  socket.resume();
  while (!ponged && !result.close) {
    if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping","t":-1}');
    await Promise.race([closed, new Promise((r) => setTimeout(r, 50))]);
  }
  ws.terminate();
  return result;
}

describe("a client that sends without reading", { timeout: 120_000 }, () => {
  for (const who of ["owner", "share"] as const) {
    it(`tiny bad frames (${who} token): replies stay within the high water, then 1008`, async () => {
      const got = await flood(server.tokens[who]!, "x", FRAMES);
      console.log(
        `${got.sent} frames "x" (${who}): ${got.messages} replies read, server peak buffer ${server.stream.peakBuffered()} B, close ${JSON.stringify(got.close)}`,
      );
      expect(server.stream.peakBuffered()).toBeLessThanOrEqual(BOUND);
      expect(server.stream.unreadClosed()).toBe(1);
      expect(got.close).toEqual({
        code: 1008,
        reason: "100 messages sent while not reading the replies",
      });
    });
  }

  it("resume(0) again and again past maxLag: one catchUp queued at a time, not one per resume", async () => {
    for (let i = 0; i < 1000; i++) hub.push({ stage: "enqueue", ts: i, key: "a/b" });
    const got = await flood(server.tokens.share!, '{"type":"resume","since":0}', FRAMES);
    console.log(
      `${got.sent} resumes: ${got.messages} messages read, server peak buffer ${server.stream.peakBuffered()} B`,
    );
    expect(server.stream.peakBuffered()).toBeLessThanOrEqual(BOUND);
    // The client that reads again is served: its ping was answered.
    expect(got.close).toBeUndefined();
  });
});
