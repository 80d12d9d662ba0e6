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
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { startApiServer } from "../../packages/apiserver/src/index.ts";
import { FooController, type FooControllerOptions } from "../../packages/controller/src/index.ts";
import type { UnsequencedEvent } from "../../packages/trace/src/index.ts";
import type { Bench, BenchCase, Measurement } from "./lib/types.ts";

// scripts/ is no workspace package: take client-node (1.4.0) from the controller's dependencies.
const clientNodePath = createRequire(
  new URL("../../packages/controller/package.json", import.meta.url),
).resolve("@kubernetes/client-node");
const { CustomObjectsApi, KubeConfig } = (await import(
  pathToFileURL(clientNodePath).href
)) as typeof import("../../packages/controller/node_modules/@kubernetes/client-node/dist/index.js");

const FOO = { group: "samplecontroller.k8s.io", version: "v1alpha1", plural: "foos" };

async function toSteadyState(
  count: number,
  probe: Partial<FooControllerOptions>,
): Promise<Measurement> {
  const api = await startApiServer({ deploymentReadyDelayMs: 10, deploymentStepDelayMs: 2 });
  const kc = new KubeConfig();
  kc.loadFromString(api.kubeconfigYaml());
  const co = kc.makeApiClient(CustomObjectsApi);
  let events = 0;
  const controller = new FooController({ kubeConfig: kc, resyncMs: 0, ...probe });
  await controller.run();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  // Eight clients in parallel, like a burst of kubectl applies.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        await co.createNamespacedCustomObject({
          ...FOO,
          namespace: "default",
          body: {
            apiVersion: "samplecontroller.k8s.io/v1alpha1",
            kind: "Foo",
            metadata: { name: `foo-${i}` },
            spec: { deploymentName: `foo-${i}`, replicas: 1 },
          },
        });
      }
    }),
  );
  for (;;) {
    const foos = controller.foos.list();
    const done = foos.length === count && foos.every((f) => f.status?.availableReplicas === 1);
    if (done && controller.queue.len() === 0 && controller.queue.waitingLen() === 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
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
