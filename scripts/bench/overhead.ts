/**
 * overhead: what the stage probe costs the controller. N Foos are created in the embedded API
 * server and the Foo controller brings them all to steady state (every Foo's status shows its
 * replicas available, the queue idle); value = CPU ms (user + system) this process spent from the
 * first create to steady state — CPU time, not wall time, because on a shared machine the wall
 * clock mostly measures the neighbours (wall ms is kept in the details).
 *
 * - baseline "probe off": no sink, no klog — the probe's only cost is one branch per stage;
 * - "probe on": every stage event built (with ts and file:line) and handed to a sink that numbers
 *   and keeps it, as the server's TraceHub does;
 * - "probe + klog": also formatted as klog STAGE lines (written nowhere).
 * Goal: probe on / off ≤ 1.05. API server, controller and client share one process and CPU, so
 * the ratio is of the whole system's time, which is what a user waits for.
 *
 *   pnpm bench overhead [--smoke]          (OVERHEAD_FOOS=200 for a quicker full run)
 */
import { FooController, type FooControllerOptions } from "../../packages/controller/src/index.ts";
import type { UnsequencedEvent } from "../../packages/trace/src/index.ts";
import { createFoos, fastCluster, untilSteady } from "./lib/foo-burst.ts";
import type { Bench, BenchCase, Measurement } from "./lib/types.ts";

async function toSteadyState(
  count: number,
  probe: Partial<FooControllerOptions>,
): Promise<Measurement> {
  const { api, kubeConfig } = await fastCluster();
  let events = 0;
  const controller = new FooController({ kubeConfig, resyncMs: 0, ...probe });
  await controller.run();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await createFoos(kubeConfig, count);
  await untilSteady(controller, count);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  await controller.stop();
  await api.stop();
  if (probe.probe) events = counted;
  counted = 0;
  return { value: cpuMs, details: { wallMs, ...(events ? { events } : {}) } };
}

let counted = 0;
const kept: UnsequencedEvent[] = [];
const sink = (e: UnsequencedEvent): number => {
  kept.push(e);
  if (kept.length > 100_000) kept.length = 0;
  return ++counted;
};

const bench: Bench = {
  description:
    "Foos to steady state with the stage probe off vs on (ms, lower is better; goal on/off ≤ 1.05)",
  unit: "ms",
  better: "lower",
  runs: 5,
  setup(ctx) {
    const count = ctx.smoke ? 2 : Number(process.env.OVERHEAD_FOOS ?? 1000);
    const cases: BenchCase[] = [
      { name: "probe on", run: () => toSteadyState(count, { probe: sink }) },
      {
        name: "probe + klog",
        run: () => toSteadyState(count, { probe: sink, klog: () => {}, verbosity: 2 }),
      },
    ];
    return {
      baseline: { name: "probe off", run: () => toSteadyState(count, {}) },
      cases,
      info: { foos: count, workers: 2 },
    };
  },
};

export default bench;
