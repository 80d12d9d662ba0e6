/**
 * scale: Foos reconciled per second, 1 worker vs 4, against the embedded API server over real
 * HTTP. N Foos are created by 8 parallel clients; the value is N ÷ wall seconds from the first
 * create until every Foo's status shows its replica available and the queue is idle.
 *
 * The API server answers writes after WRITE_LATENCY_MS (its fault injector), a cluster's typical
 * write latency: with an in-process server that answers in microseconds a reconcile is pure CPU
 * and one Node process gains nothing from more workers; with real latency, workers overlap waits —
 * which is what `--workers` is for. Goal: 4 workers ≥ 2× one. Full: 300 Foos (SCALE_FOOS=N to change); --smoke: 4.
 */
import { FooController } from "../../packages/controller/src/index.ts";
import { createFoos, fastCluster, untilSteady } from "./lib/foo-burst.ts";
import type { Bench, Measurement } from "./lib/types.ts";

const WRITE_LATENCY_MS = 5;

async function reconcileAll(count: number, workers: number): Promise<Measurement> {
  const { api, kubeConfig } = await fastCluster();
  for (const verb of ["create", "update", "patch"] as const)
    api.faults.setLatency(verb, WRITE_LATENCY_MS);
  const controller = new FooController({ kubeConfig, resyncMs: 0, workers });
  try {
    await controller.run();
    const t0 = performance.now();
    await createFoos(kubeConfig, count);
    await untilSteady(controller, count);
    const ms = performance.now() - t0;
    return { value: count / (ms / 1000), details: { wallMs: ms } };
  } finally {
    await controller.stop();
    await api.stop();
  }
}

const bench: Bench = {
  description: `Foos reconciled/s against the embedded API server (${WRITE_LATENCY_MS} ms writes), 1 vs 4 workers (goal 4 ≥ 2×)`,
  unit: "Foos/s",
  better: "higher",
  setup(ctx) {
    const count = ctx.smoke ? 4 : Number(process.env.SCALE_FOOS ?? 300);
    return {
      info: { foos: count, writeLatencyMs: WRITE_LATENCY_MS },
      baseline: { name: "1 worker", run: () => reconcileAll(count, 1) },
      cases: [
        { name: "2 workers", run: () => reconcileAll(count, 2) },
        { name: "4 workers", run: () => reconcileAll(count, 4) },
      ],
    };
  },
};

export default bench;
