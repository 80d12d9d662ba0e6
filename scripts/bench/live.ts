/**
 * Live stream benchmark: events pushed into the server's TraceHub (recording to a temp file, as
 * `loopscope up` does) reach a real WebSocket client of the dashboard server.
 *
 *   pnpm bench live            # or: tsx scripts/bench/live.ts [--smoke]
 *
 * Measures
 * - sustained throughput: events/s the client receives while the hub is fed as fast as it goes;
 * - delay at 10k events/s: emit → receipt (p50/p95/p99 ms), the producer paced by wall clock;
 * - the server's largest per-client socket buffer (bytes) — bounded by design.
 * Client and server share one process (and its CPU), so these are lower bounds for either.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UnsequencedEvent } from "@loopscope/trace";
import { Recording } from "../../apps/server/src/hub/recording.ts";
import { TraceHub } from "../../apps/server/src/hub/trace-hub.ts";
import { hubBackend } from "../../apps/server/src/dashboard/testing.ts";
import { startDashboardServer } from "../../apps/server/src/dashboard/dashboard-server.ts";
import { StreamClient } from "../../apps/server/src/ws/stream-client.ts";

export interface LiveBenchResult {
  name: "live";
  sustainedEventsPerSec: number;
  rateEventsPerSec: number;
  delayMs: { p50: number; p95: number; p99: number; max: number };
  peakServerBufferBytes: number;
  events: number;
}

const nowMicros = () => (performance.timeOrigin + performance.now()) * 1000;

function event(i: number): UnsequencedEvent {
  // A realistic record: the size of a write event from the controller.
  return {
    stage: "write",
    ts: nowMicros(),
    key: `default/foo-${i % 50}`,
    verb: "updateStatus",
    target: `foos/default/foo-${i % 50}/status`,
    code: 200,
    rv: String(1_000_000 + i),
    changed: i % 2 === 0,
    fields: ["status.availableReplicas"],
    worker: 1 + (i % 2),
    src: "foo-controller.ts:579",
  };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

export async function benchLive(opts: { smoke?: boolean } = {}): Promise<LiveBenchResult> {
  const seconds = opts.smoke ? 0.5 : 5;
  const rate = 10_000;
  const dir = await mkdtemp(join(tmpdir(), "loopscope-bench-live-"));
  const rec = await Recording.create(join(dir, "bench.jsonl"), { source: "bench", created: "" });
  const hub = new TraceHub({ recording: rec });
  const server = await startDashboardServer({
    backend: hubBackend(hub, dir),
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
  });
  const delays: number[] = [];
  let measuring = false;
  const client = new StreamClient({
    baseUrl: server.url,
    token: server.tokens.owner,
    keep: false,
    onEvent: (e) => {
      if (measuring) delays.push((nowMicros() - e.ts) / 1000);
    },
  });
  try {
    await client.connect();

    // 1. Sustained: feed as fast as the loop allows, in bursts, while the client keeps up.
    let i = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < seconds * 1000) {
      for (let k = 0; k < 500; k++) hub.push(event(i++));
      await tick();
    }
    await client.waitFor(hub.lastSeq, 1);
    const sustained = (client.lastSeq / (performance.now() - t0)) * 1000;

    // 2. Paced at `rate`: push what the clock says is due, measure each event's delay.
    measuring = true;
    const start = performance.now();
    let sent = 0;
    const total = Math.round(rate * seconds);
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      for (; sent < due; sent++) hub.push(event(i++));
      await new Promise((r) => setTimeout(r, 1));
    }
    await client.waitFor(hub.lastSeq, 1);
    delays.sort((a, b) => a - b);
    const q = (p: number) =>
      round(delays[Math.min(delays.length - 1, Math.floor(p * delays.length))]);
    return {
      name: "live",
      sustainedEventsPerSec: Math.round(sustained),
      rateEventsPerSec: rate,
      delayMs: { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: round(delays.at(-1) ?? 0) },
      peakServerBufferBytes: server.stream.peakBuffered(),
      events: hub.lastSeq,
    };
  } finally {
    await client.close();
    await server.close();
    await hub.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchLive({ smoke: process.argv.includes("--smoke") });
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
