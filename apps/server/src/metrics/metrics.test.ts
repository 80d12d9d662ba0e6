/**
 * /metrics against the real thing: the Foo controller on the embedded API server, the create-foo
 * scenario, the route served by the dashboard's router over HTTP on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimitingQueue, type RateLimiter } from "@loopscope/controller";
import type { EnqueueEvent, TraceEvent } from "@loopscope/trace";
import { createRouter } from "../http/router.ts";
import { newToken, type AccessPolicy } from "../http/security.ts";
import { sendError } from "../http/respond.ts";
import { startSession } from "../session/session.ts";
import { EventLog } from "../scenarios/event-log.ts";
import { runScenario } from "../scenarios/run-scenario.ts";
import { createFoo } from "../scenarios/create-foo.ts";
import { FAST_CLUSTER } from "../scenarios/headless.ts";
import { Registry } from "prom-client";
import { createMetrics, ReconcileMetrics, type LoopscopeMetrics } from "./index.ts";

/** Sample value of a series in the Prometheus text format, e.g. `workqueue_adds_total{name="foos"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function sumOf(text: string, metric: string): number {
  return text
    .split("\n")
    .filter((l) => l.startsWith(metric + "{"))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

async function serve(metrics: LoopscopeMetrics): Promise<{ server: Server; url: string }> {
  const policy: AccessPolicy = { ownerToken: newToken(), bindHost: "127.0.0.1", port: 0 };
  const server = createServer(
    createRouter(policy, [metrics.route()], ({ res }) => sendError(res, 404, "not found")),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  policy.port = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${policy.port}` };
}

describe("workqueue metrics under client-go's names", () => {
  it("follow a real rate-limiting queue: adds, depth, retries, durations", async () => {
    const m = createMetrics();
    const noDelay: RateLimiter<string> = { when: () => 0, forget() {}, numRequeues: () => 0 };
    const q = new RateLimitingQueue<string>({
      name: "t",
      metrics: m.workqueue,
      rateLimiter: noDelay,
    });
    q.add("a");
    q.add("b");
    q.add("a"); // merged: not an add in client-go's count
    let text = await m.registry.metrics();
    expect(sample(text, 'workqueue_adds_total{name="t"}')).toBe(2);
    expect(sample(text, 'workqueue_depth{name="t"}')).toBe(2);
    const got = await q.get();
    q.addRateLimited(got.item!);
    q.done(got.item!);
    await q.get();
    text = await m.registry.metrics();
    expect(sample(text, 'workqueue_retries_total{name="t"}')).toBe(1);
    expect(sample(text, 'workqueue_queue_duration_seconds_count{name="t"}')).toBe(2);
    expect(sample(text, 'workqueue_work_duration_seconds_count{name="t"}')).toBe(1);
    expect(text).toContain('workqueue_queue_duration_seconds_bucket{le="1e-8",name="t"}');
    for (const name of [
      "workqueue_unfinished_work_seconds",
      "workqueue_longest_running_processor_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    q.shutDown();
  });
});

describe("GET /metrics after a create-foo run", () => {
  const metrics = createMetrics();
  const events = new EventLog();
  let text = "";
  let server: Server | undefined;
  let contentType = "";

  beforeAll(async () => {
    const session = await startSession({
      cluster: { kind: "embedded", apiserverOpts: FAST_CLUSTER },
      resyncMs: 0,
      onEvent: events.push,
      metrics: metrics.workqueue,
    });
    const unsubscribe = events.subscribe(metrics.reconciles.observe);
    try {
      await runScenario(createFoo, { session, events, timeoutMs: 30_000 });
    } finally {
      await session.stop();
      unsubscribe();
    }
    const s = await serve(metrics);
    server = s.server;
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    contentType = res.headers.get("content-type") ?? "";
    text = await res.text();
  }, 60_000);

  afterAll(() => {
    server?.close();
  });

  it("serves the Prometheus text format", () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toContain("# HELP workqueue_adds_total Total number of adds handled by workqueue");
  });

  it("counts as workqueue_adds_total exactly the enqueues of the trace that reached the queue", () => {
    const enqueues = events.events.filter((e): e is EnqueueEvent => e.stage === "enqueue");
    expect(enqueues.length).toBeGreaterThan(1);
    // client-go counts an add once it is accepted: appended, or parked behind the worker.
    // An add merged into a key already waiting ("dirty") is not an add.
    const accepted = enqueues.filter((e) => e.merged !== "dirty");
    expect(sample(text, 'workqueue_adds_total{name="foos"}')).toBe(accepted.length);
    expect(sample(text, 'workqueue_depth{name="foos"}')).toBe(0);
    const dequeues = events.events.filter((e) => e.stage === "dequeue").length;
    expect(sample(text, 'workqueue_queue_duration_seconds_count{name="foos"}')).toBe(dequeues);
    expect(sample(text, 'workqueue_work_duration_seconds_count{name="foos"}')).toBe(dequeues);
  });

  it("counts reconcile passes by cause, matching the analysis of the trace", () => {
    const passes = events.analyzer.passes("default/example-foo");
    const closed = passes.filter((p) => p.end !== undefined);
    expect(sumOf(text, "loopscope_reconcile_total")).toBe(closed.length);
    expect(closed.filter((p) => p.cause === "self").length).toBeGreaterThan(0);
    // Every (cause, outcome) the analysis saw is one series with its count. A self pass may end
    // "conflict" or "error" as well as "synced" when the cluster races the controller.
    const expected = new Map<string, number>();
    for (const p of closed) {
      const series = `loopscope_reconcile_total{name="foos",cause="${p.cause}",outcome="${p.outcome ?? "unknown"}"}`;
      expected.set(series, (expected.get(series) ?? 0) + 1);
    }
    for (const [series, count] of expected) expect(sample(text, series), series).toBe(count);
    const dones = events.events.filter((e: TraceEvent) => e.stage === "done").length;
    expect(closed.length).toBe(dones);
  });

  it("keeps counting every pass when the analysis starts afresh to bound its memory", async () => {
    const registry = new Registry();
    const bounded = new ReconcileMetrics(registry, { maxPasses: 2 });
    for (const e of events.events) bounded.observe(e);
    expect(bounded.generation).toBeGreaterThan(0);
    const dones = events.events.filter((e) => e.stage === "done").length;
    expect(sumOf(await registry.metrics(), "loopscope_reconcile_total")).toBe(dones);
  });
});
