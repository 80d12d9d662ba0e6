/**
 * Stream integrity under connection loss: events flow through the real hub (recording to disk)
 * at ≥ 5k events/s while a client's WebSocket is cut and re-opened ≥ 100 times — some cuts long
 * enough for the ring to move past the client, so resumes also go through catchUp over HTTP.
 * The client's final event list must equal the recording read back from disk: 0 lost,
 * 0 duplicated, same content, counted in the output.
 *
 * The producer is paced by elapsed time (events owed = rate × time), so the rate holds even when
 * a busy machine delays timers; the test reports the rate it achieved instead of asserting a time.
 * LOOPSCOPE_SOAK=1: 1,000 cuts at 20k events/s.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { decodeEventRecords, readTraceText, type UnsequencedEvent } from "@loopscope/trace";
import type { ServerMessage } from "@loopscope/protocol";
import { Recording } from "../hub/recording.ts";
import { TraceHub } from "../hub/trace-hub.ts";
import { StreamClient } from "../ws/stream-client.ts";
import { startDashboardServer, type DashboardServer } from "../dashboard/dashboard-server.ts";
import { hubBackend } from "../dashboard/testing.ts";

const SOAK = process.env.LOOPSCOPE_SOAK === "1";
const CUTS = SOAK ? 1000 : 120;
const RATE = SOAK ? 20_000 : 6_000; // events per second

let dir: string | undefined;
let server: DashboardServer | undefined;
let hub: TraceHub | undefined;
afterEach(async () => {
  await server?.close();
  await hub?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const event = (i: number): UnsequencedEvent =>
  i % 2 === 0
    ? { stage: "enqueue", ts: 1_764_666_000_000_000 + i, key: `default/foo-${i % 97}`, len: i % 5 }
    : {
        stage: "dequeue",
        ts: 1_764_666_000_000_000 + i,
        key: `default/foo-${i % 97}`,
        worker: i % 4,
      };

it(
  `≥ ${CUTS} WebSocket cuts at ≥ ${RATE / 1000}k events/s: client events = recording, 0 lost, 0 duplicated`,
  { timeout: 120_000 },
  async () => {
    dir = await mkdtemp(join(tmpdir(), "loopscope-integrity-"));
    const file = join(dir, "run.jsonl");
    const rec = await Recording.create(file, { source: "test", created: "t" });
    hub = new TraceHub({ ringCapacity: 2000, recording: rec });
    server = await startDashboardServer({
      backend: hubBackend(hub, dir),
      host: "127.0.0.1",
      port: 0,
      webRoot: dir,
      tuning: { batchMs: 5, batchEvents: 200, highWater: 1024 * 1024, maxLag: 1500 },
    });
    // Count every event as it arrives, before the client's own duplicate filter.
    const arrivals = new Map<number, number>();
    let wsEvents = 0;
    const client = new StreamClient({
      baseUrl: server.url,
      token: server.tokens.owner,
      onMessage: (m: ServerMessage) => {
        if (m.type !== "events") return;
        for (const e of decodeEventRecords(m.events)) {
          wsEvents++;
          arrivals.set(e.seq, (arrivals.get(e.seq) ?? 0) + 1);
        }
      },
    });
    await client.connect();

    const started = performance.now();
    let pushed = 0;
    const h = hub;
    const producer = setInterval(() => {
      const owed = Math.floor(((performance.now() - started) / 1000) * RATE);
      while (pushed < owed) h.push(event(pushed++));
    }, 2);
    let reconnects = 0;
    try {
      for (let cut = 0; cut < CUTS; cut++) {
        const before = client.lastSeq;
        await vi.waitFor(() => expect(client.lastSeq).toBeGreaterThan(before), {
          timeout: 20_000,
          interval: 1,
        });
        client.cut();
        if (cut % 10 === 0) {
          // Away long enough for the ring (2000) to move past: the resume becomes a catchUp.
          const at = h.lastSeq;
          await vi.waitFor(() => expect(h.lastSeq).toBeGreaterThan(at + 2500), {
            timeout: 20_000,
            interval: 2,
          });
        }
        await client.connect();
        reconnects++;
      }
    } finally {
      clearInterval(producer);
    }
    const seconds = (performance.now() - started) / 1000;
    await client.waitFor(h.lastSeq);
    await client.close();
    await h.close(); // flushes the recording

    const recorded = readTraceText(await readFile(file, "utf8"));
    expect(recorded.reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    const got = new Map(client.events.map((e) => [e.seq, e]));
    const lost = recorded.events.filter((e) => !got.has(e.seq)).length;
    const extra = client.events.length - (recorded.events.length - lost);
    const duplicated = client.violations.filter((v) => /got seq (\d+) after (\d+)/.test(v)).length;
    const redelivered = [...arrivals.values()].filter((n) => n > 1).length;
    console.log(
      `stream integrity: ${recorded.events.length} events at ${(h.lastSeq / seconds).toFixed(0)}/s over ${seconds.toFixed(1)} s, ` +
        `${reconnects} reconnects, ${client.catchUps} catchUps; lost ${lost}, duplicated ${duplicated}, ` +
        `unrecorded ${extra}, seqs delivered twice on the wire ${redelivered} (of ${wsEvents})`,
    );
    expect(reconnects).toBeGreaterThanOrEqual(100);
    expect(client.catchUps).toBeGreaterThan(0);
    expect(lost).toBe(0);
    expect(duplicated).toBe(0);
    expect(redelivered).toBe(0);
    expect(extra).toBe(0);
    // Same content, not just the same seqs.
    expect(client.events.map((e) => JSON.stringify(e))).toEqual(
      recorded.events.map((e) => JSON.stringify(e)),
    );
  },
);
