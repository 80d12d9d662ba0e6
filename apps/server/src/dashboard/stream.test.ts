import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API, TOKEN_HEADER, type ServerMessage } from "@loopscope/protocol";
import type { UnsequencedEvent } from "@loopscope/trace";
import { Recording } from "../hub/recording.ts";
import { TraceHub } from "../hub/trace-hub.ts";
import { StreamClient } from "../ws/stream-client.ts";
import { startDashboardServer, type DashboardServer } from "./dashboard-server.ts";
import { hubBackend, type HubBackend } from "./testing.ts";

const enqueue = (i: number): UnsequencedEvent => ({
  stage: "enqueue",
  ts: 1_700_000_000_000_000 + i,
  key: `default/foo-${i % 7}`,
  len: i % 3,
});

let dir: string;
let hub: TraceHub;
let backend: HubBackend;
let server: DashboardServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-stream-"));
  const rec = await Recording.create(join(dir, "run.jsonl"), { source: "test", created: "t" });
  // A small ring so resumes also reach back into the recording on disk.
  hub = new TraceHub({ ringCapacity: 500, recording: rec });
  backend = hubBackend(hub, dir);
});

afterEach(async () => {
  await server?.close();
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(tuning?: Parameters<typeof startDashboardServer>[0]["tuning"]) {
  server = await startDashboardServer({
    backend,
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
    tuning,
  });
  return server;
}

describe("event stream", () => {
  it("sends hello, objects, then every event in seq order in batches", async () => {
    await start();
    for (let i = 0; i < 300; i++) hub.push(enqueue(i));
    const messages: ServerMessage[] = [];
    const client = new StreamClient({
      baseUrl: server.url,
      token: server.tokens.owner,
      onMessage: (m) => messages.push(m),
    });
    await client.connect();
    for (let i = 300; i < 900; i++) hub.push(enqueue(i));
    await client.waitFor(900);
    expect(messages[0].type).toBe("hello");
    expect(messages[1].type).toBe("objects");
    expect(client.events.map((e) => e.seq)).toEqual(Array.from({ length: 900 }, (_, i) => i + 1));
    expect(client.violations).toEqual([]);
    const batches = messages.filter((m) => m.type === "events");
    expect(batches.length).toBeLessThan(900 / 2);
    backend.setObjects({
      atSeq: 900,
      objects: [{ kind: "Foo", namespace: "default", name: "a", resourceVersion: "7" }],
    });
    await vi.waitFor(() =>
      expect(messages.at(-1)).toMatchObject({ type: "objects", objects: { atSeq: 900 } }),
    );
    await client.close();
  });

  it("sends each event as one record: alike on the WebSocket, over GET /api/trace and on disk", async () => {
    await start();
    // Extras are where encodings part: nested under `extra` in the event, flattened in a file.
    hub.push({ ...enqueue(1), extra: { queue: "fast", cause: "bogus" } });
    hub.push({ stage: "note", ts: 2, key: "", text: "t", extra: { level2: { a: 1 } } });
    hub.push(enqueue(3));
    const records: unknown[] = [];
    const client = new StreamClient({
      baseUrl: server.url,
      token: server.tokens.owner,
      onMessage: (m) => {
        if (m.type === "events") records.push(...m.events);
      },
    });
    await client.connect();
    await client.waitFor(3);
    const res = await fetch(new URL(`${API.trace}?from=1&to=3`, server.url), {
      headers: { [TOKEN_HEADER]: server.tokens.owner },
    });
    const overHttp = (await res.text()).trimEnd().split("\n").slice(1);
    await hub.recording!.flush();
    const onDisk = (await readFile(join(dir, "run.jsonl"), "utf8")).trimEnd().split("\n").slice(1);
    expect(records).toEqual(overHttp.map((l) => JSON.parse(l) as unknown));
    expect(records).toEqual(onDisk.map((l) => JSON.parse(l) as unknown));
    expect(records[0]).toEqual({ ...enqueue(1), seq: 1, queue: "fast", cause: "bogus" });
    // Decoded as a file's records are: the extras back under `extra`.
    expect(client.events).toEqual(await hub.range(1, 3));
    expect(client.events[0].extra).toEqual({ queue: "fast", cause: "bogus" });
    await client.close();
  });

  it("GET /api/trace?from=0 is a 400: seqs start at 1 (it was a 410, as if events had been dropped)", async () => {
    await start();
    hub.push(enqueue(1));
    const get = (q: string) =>
      fetch(new URL(`${API.trace}${q}`, server.url), {
        headers: { [TOKEN_HEADER]: server.tokens.owner },
      });
    const zero = await get("?from=0");
    expect(zero.status).toBe(400);
    expect(((await zero.json()) as { message: string }).message).toBe("from is a seq: 1 or more");
    expect((await get("?from=1")).status).toBe(200);
  });

  it("resume after many cuts mid-stream: final sequence equals the server's, no gaps or duplicates", async () => {
    // maxLag small so some resumes come back as catchUp and go through HTTP.
    await start({ batchMs: 5, batchEvents: 50, highWater: 1024 * 1024, maxLag: 400 });
    const client = new StreamClient({ baseUrl: server.url, token: server.tokens.owner });
    await client.connect();
    let pushed = 0;
    const producer = setInterval(() => {
      for (let i = 0; i < 40; i++) hub.push(enqueue(pushed++));
    }, 1);
    for (let cut = 0; cut < 25; cut++) {
      const before = client.lastSeq;
      await vi.waitFor(() => expect(client.lastSeq).toBeGreaterThan(before), { interval: 2 });
      client.cut();
      if (cut % 3 === 0) {
        // stay away long enough for the ring (500) to move past us
        const at = hub.lastSeq;
        await vi.waitFor(() => expect(hub.lastSeq).toBeGreaterThan(at + 600), { interval: 2 });
      }
      await client.connect();
    }
    clearInterval(producer);
    await client.waitFor(hub.lastSeq);
    expect(client.violations).toEqual([]);
    expect(client.lastSeq).toBe(hub.lastSeq);
    expect(client.events.map((e) => e.seq)).toEqual(
      Array.from({ length: hub.lastSeq }, (_, i) => i + 1),
    );
    expect(client.catchUps).toBeGreaterThan(0);
    await client.close();
  });

  it("a client that stops reading gets catchUp, and server memory stays bounded", async () => {
    await start({ batchMs: 5, batchEvents: 200, highWater: 64 * 1024, maxLag: 2000 });
    const messages: ServerMessage[] = [];
    const client = new StreamClient({
      baseUrl: server.url,
      token: server.tokens.owner,
      onMessage: (m) => messages.push(m),
    });
    await client.connect();
    await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(2));
    // Stop reading: the client's socket pauses, the server's buffer fills past high water.
    const raw = (client as unknown as { ws: { _socket: { pause(): void; resume(): void } } }).ws;
    raw._socket.pause();
    const big = "x".repeat(500);
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 500; i++) hub.push({ ...enqueue(i), src: big });
      await new Promise((r) => setTimeout(r, 5));
    }
    raw._socket.resume();
    await client.waitFor(hub.lastSeq);
    expect(messages.some((m) => m.type === "catchUp")).toBe(true);
    // ~12 MB were produced; the server never queued more than high water plus one batch.
    const oneBatch = 200 * 700;
    expect(server.stream.peakBuffered()).toBeLessThan(64 * 1024 + oneBatch);
    expect(client.violations).toEqual([]);
    expect(client.events.length).toBe(hub.lastSeq);
    await client.close();
  });
});
