/**
 * live: events pushed into the server's TraceHub (recording to a file, as `loopscope up` does)
 * reaching a client of the dashboard server: first a Node WebSocket client (the transport), then
 * the dashboard itself in headless Chromium (server → browser, emit → paint).
 *
 * - baseline: a bare `ws` server sending the same events in 1000-event JSON batches to the Node
 *   client — the transport's ceiling with nothing of ours in the way;
 * - "hub → client": the hub fed as fast as the loop allows; value = events/s the client receives;
 * - "paced 10k/s": the producer paced by the clock at 10 000 events/s; value = the rate achieved,
 *   details = emit → receipt delay p50/p95/p99 (ms), logged each run.
 * The Node client runs in a worker thread (live-client.worker.mjs): its own event loop, as a
 * browser tab would be, though on the same machine (and cores) as the server.
 *
 * The browser cases (lib/live-browser.ts) feed the same events to other hubs behind the real
 * dashboard server, with the built web app (apps/web/dist) open in Chromium on foo-0's lanes:
 * - "hub → browser store": the hub fed as fast as the loop allows; value = events/s until the
 *   page's store holds them all (as its timeline's next frame reports it);
 * - "paced 10k/s → browser paint": value = emit → paint delay p95 (ms), details p50/p95/p99:
 *   paint = the frame in which the timeline drew the event, or a later one of the stream (every
 *   50th event is foo-0's: 5 ms apart at 10k/s). Goal (issue 9): ≥ 10k/s, p95 ≤ 200 ms.
 *
 *   pnpm bench live [--smoke]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { TraceEvent, UnsequencedEvent } from "../../packages/trace/src/index.ts";
import { Recording } from "../../apps/server/src/hub/recording.ts";
import { TraceHub } from "../../apps/server/src/hub/trace-hub.ts";
import { hubBackend } from "../../apps/server/src/dashboard/testing.ts";
import { startDashboardServer } from "../../apps/server/src/dashboard/dashboard-server.ts";
import { Worker } from "node:worker_threads";
import { liveBrowserCases } from "./lib/live-browser.ts";
import type { Bench, BenchCase, Measurement } from "./lib/types.ts";

// scripts/ is no workspace package: take `ws` from the server's dependencies.
const { WebSocketServer } = createRequire(
  new URL("../../apps/server/package.json", import.meta.url),
)("ws") as typeof import("ws");
type WebSocket = import("ws").WebSocket;

const RATE = 10_000;
/** Foos the events are spread over; the browser shows FOCUS's lanes, as a user picking one. */
const FOOS = 50;
const FOCUS = "default/foo-0";
/** Wall clock, µs: the same clock in this process and in the page (see lib/live-page.ts). */
const nowMicros = () => (performance.timeOrigin + performance.now()) * 1000;
const tick = () => new Promise<void>((r) => setImmediate(r));

/** The size and shape of a controller's status write event (its `ts` is its emit time). */
function event(i: number): UnsequencedEvent {
  return {
    stage: "write",
    ts: nowMicros(),
    key: `default/foo-${i % FOOS}`,
    verb: "updateStatus",
    target: `foos/default/foo-${i % FOOS}/status`,
    code: 200,
    rv: String(1_000_000 + i),
    changed: i % 2 === 0,
    fields: ["status.availableReplicas"],
    worker: 1 + (i % 2),
    src: "foo-controller.ts:579",
  };
}

function quantile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** The worker client, connected to `url` (once it has the server's hello). */
async function startClient(url: string, token: string) {
  const worker = new Worker(new URL("./live-client.worker.mjs", import.meta.url), {
    workerData: { url, token },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", () => resolve());
  });
  return {
    /** Resolves when the client holds every event up to `seq`, with the delays since last time. */
    reach: (seq: number) =>
      new Promise<number[]>((resolve, reject) => {
        worker.once("message", (m: { delays: number[]; violations: number }) =>
          m.violations > 0
            ? reject(new Error(`${m.violations} seq violations`))
            : resolve(m.delays),
        );
        worker.postMessage({ type: "wait", seq });
      }),
    close: () => worker.terminate(),
  };
}

/** A bare `ws` server sending the events in 1000-event batches to the same worker client. */
async function bareTransport(count: number): Promise<Measurement> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  const port = (wss.address() as { port: number }).port;
  const connected = new Promise<WebSocket>((resolve) =>
    wss.once("connection", (ws) => {
      ws.send(JSON.stringify({ type: "hello" }));
      resolve(ws);
    }),
  );
  const client = await startClient(`http://127.0.0.1:${port}/`, "");
  const ws = await connected;
  const t0 = performance.now();
  const reached = client.reach(count);
  for (let i = 0; i < count; i += 1000) {
    const batch: TraceEvent[] = [];
    for (let k = i; k < Math.min(count, i + 1000); k++) {
      batch.push({ ...event(k), seq: k + 1 } as TraceEvent);
    }
    ws.send(JSON.stringify({ type: "events", events: batch }));
    if (ws.bufferedAmount > 1 << 20) await tick();
  }
  await reached;
  const ms = performance.now() - t0;
  await client.close();
  wss.close();
  return { value: (count / ms) * 1000, details: { ms, events: count } };
}

const bench: Bench = {
  description:
    "TraceHub → WebSocket client and → the dashboard in Chromium: events/s, emit→receipt and emit→paint at 10k events/s",
  unit: "events/s",
  better: "higher",
  async setup(ctx) {
    const burst = ctx.smoke ? 20_000 : 200_000;
    const pacedMs = ctx.smoke ? 300 : 3000;
    const dir = await mkdtemp(join(ctx.tmpDir, "live-"));
    const rec = await Recording.create(join(dir, "bench.jsonl"), { source: "bench", created: "" });
    const hub = new TraceHub({ recording: rec });
    const server = await startDashboardServer({
      backend: hubBackend(hub, dir),
      host: "127.0.0.1",
      port: 0,
      webRoot: dir,
    });
    const client = await startClient(server.url, server.tokens.owner);
    const browserBurst = ctx.smoke ? 5_000 : burst;
    const browser = await liveBrowserCases(ctx, {
      dir,
      event,
      focus: FOCUS,
      burst: browserBurst,
      rate: RATE,
      pacedMs,
    }).catch(async (e: unknown) => {
      await client.close();
      await server.close();
      await hub.close();
      throw e;
    });
    const reach = client.reach;
    let n = 0;

    const sustained: BenchCase = {
      name: "hub → client, as fast as it goes",
      async run() {
        const first = hub.lastSeq;
        const t0 = performance.now();
        for (let i = 0; i < burst; i += 500) {
          for (let k = 0; k < 500; k++) hub.push(event(n++));
          await tick();
        }
        await reach(hub.lastSeq);
        const ms = performance.now() - t0;
        return {
          value: ((hub.lastSeq - first) / ms) * 1000,
          details: { ms, events: hub.lastSeq - first },
        };
      },
    };

    const paced: BenchCase = {
      name: `paced ${RATE / 1000}k/s (delay in details)`,
      async run() {
        await reach(hub.lastSeq); // drop what earlier runs left
        const total = Math.round((RATE * pacedMs) / 1000);
        const start = performance.now();
        let sent = 0;
        while (sent < total) {
          const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
          for (; sent < due; sent++) hub.push(event(n++));
          await new Promise((r) => setTimeout(r, 1));
        }
        const pushMs = performance.now() - start;
        const d = (await reach(hub.lastSeq)).sort((a, b) => a - b);
        const details = {
          p50Ms: quantile(d, 0.5),
          p95Ms: quantile(d, 0.95),
          p99Ms: quantile(d, 0.99),
          maxMs: d.at(-1) ?? 0,
          peakServerBufferBytes: server.stream.peakBuffered(),
        };
        ctx.log(
          `paced: p50 ${details.p50Ms.toFixed(1)} ms, p95 ${details.p95Ms.toFixed(1)} ms, p99 ${details.p99Ms.toFixed(1)} ms`,
        );
        return { value: (total / pushMs) * 1000, details };
      },
    };

    return {
      info: {
        burstEvents: burst,
        browserBurstEvents: browserBurst,
        pacedMs,
        rate: RATE,
        foos: FOOS,
        "page clock − server clock, ms": browser.clockOffsetMs.toFixed(2),
      },
      baseline: { name: "bare ws, 1000-event batches", run: () => bareTransport(burst) },
      cases: [sustained, paced, ...browser.cases],
      async teardown() {
        await browser.close();
        await client.close();
        await server.close();
        await hub.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

export default bench;
