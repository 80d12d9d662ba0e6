/**
 * The controller under cluster faults, over real HTTP to the embedded API server: while 200 Foos
 * are created, watches are closed every 300 ms, watches expire with 410, lists fail with 500,
 * update latency spikes, and the API server restarts once. Afterwards every Foo converges
 * (Deployment present, status.availableReplicas = spec.replicas), the controller still works
 * (one more Foo after the faults converges), and every pass in the trace has a dequeue and an
 * end, in that order, per key. Fault and pass counts are printed.
 *
 * Timings are scaled down (pods ready after 20 ms, latency spikes of 30 ms) so the run stays
 * short. LOOPSCOPE_SOAK=1: 1,000 Foos.
 */
import { afterEach, expect, it } from "vitest";
import type { AppsV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import type { TraceEvent } from "@loopscope/trace";
import {
  FOO,
  startHarness,
  type Harness,
} from "../../../../packages/controller/src/testing/embedded-harness.ts";

const FOOS = process.env.LOOPSCOPE_SOAK === "1" ? 1000 : 200;

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

interface Listed<T> {
  items: T[];
}
type FooItem = {
  metadata: { name: string };
  spec: { replicas?: number };
  status?: { availableReplicas?: number };
};

async function convergedCount(co: CustomObjectsApi, apps: AppsV1Api): Promise<number> {
  const foos = (await co.listNamespacedCustomObject({
    ...FOO,
    namespace: "default",
  })) as Listed<FooItem>;
  const deps = await apps.listNamespacedDeployment({ namespace: "default" });
  const names = new Set(deps.items.map((d) => d.metadata?.name));
  return foos.items.filter(
    (f) => names.has(f.metadata.name) && f.status?.availableReplicas === (f.spec.replicas ?? 1),
  ).length;
}

/** Per key: dequeue, (anything but dequeue/done), done — repeated; returns the broken keys. */
function unpairedPasses(events: TraceEvent[]): { passes: number; broken: string[] } {
  const open = new Map<string, boolean>();
  const broken = new Set<string>();
  let passes = 0;
  for (const e of events) {
    if (e.stage === "dequeue") {
      if (open.get(e.key)) broken.add(`${e.key}: dequeue inside a pass`);
      open.set(e.key, true);
    } else if (e.stage === "done") {
      if (!open.get(e.key)) broken.add(`${e.key}: end without a dequeue`);
      open.set(e.key, false);
      passes++;
    }
  }
  for (const [k, o] of open) if (o) broken.add(`${k}: pass never ended`);
  return { passes, broken: [...broken] };
}

it(
  `${FOOS} Foos created under watch closes, 410s, 500s on list, latency spikes and a restart all converge`,
  { timeout: 180_000 },
  async () => {
    h = await startHarness({
      apiserver: { deploymentReadyDelayMs: 20, deploymentStepDelayMs: 2 },
      controller: { workers: 2 },
    });
    const harness = h;
    const faults = harness.api.faults;
    const counts = { watchCloses: 0, expired: 0, listFailures: 0, latencySpikes: 0, restarts: 0 };
    let tick = 0;
    let restarting: Promise<void> | undefined;
    const injector = setInterval(() => {
      tick++;
      faults.closeAllWatches();
      counts.watchCloses++;
      if (tick % 2 === 0) {
        faults.expireNextWatch();
        counts.expired++;
      }
      if (tick % 3 === 0) {
        faults.failNext(3, 500, ["list"]);
        counts.listFailures += 3;
      }
      faults.setLatency("update", tick % 4 === 0 ? 30 : 0);
      if (tick % 4 === 0) counts.latencySpikes++;
      if (tick === 5 && !restarting) {
        restarting = harness.api.restart();
        counts.restarts++;
      }
    }, 300);

    const names = Array.from({ length: FOOS }, (_, i) => `fault-foo-${i}`);
    let createRetries = 0;
    try {
      for (let i = 0; i < names.length; i += 10) {
        await Promise.all(
          names.slice(i, i + 10).map(async (n) => {
            // A create may meet the restart or an injected error: retry until it exists.
            for (;;) {
              try {
                await harness.createFoo(n);
                return;
              } catch (err) {
                if ((err as { code?: number }).code === 409) return;
                createRetries++;
                await new Promise((r) => setTimeout(r, 20));
              }
            }
          }),
        );
      }
      // Keep the faults going a little after the last create — and until the restart came: on a
      // fast machine the creates can all be done before its tick.
      await new Promise((r) => setTimeout(r, 1200));
      while (!restarting) await new Promise((r) => setTimeout(r, 50));
    } finally {
      clearInterval(injector);
      await restarting;
      faults.setLatency("update", 0);
    }

    let converged = 0;
    await harness.waitFor(
      `${FOOS} Foos to converge`,
      // Our own lists may meet the last injected 500s too: try again.
      async () =>
        (converged = await convergedCount(harness.co, harness.apps).catch(() => -1)) === FOOS,
      90_000,
    );
    // The controller is still alive: a Foo created after the faults converges too.
    await harness.createFoo("after-the-faults");
    await harness.converged(["after-the-faults"], 30_000);
    await harness.waitFor("the queue to drain", () => harness.controller.queue.len() === 0);
    // Let the passes in flight end.
    await harness
      .waitFor("passes to end", () => unpairedPasses(harness.events).broken.length === 0, 10_000)
      .catch(() => undefined);

    const { passes, broken } = unpairedPasses(harness.events);
    console.log(
      `cluster faults: ${FOOS} Foos converged (${converged}), ${passes} passes all with dequeue and end; ` +
        `injected ${counts.watchCloses} watch closes, ${counts.expired} 410s, ${counts.listFailures} list 500s, ` +
        `${counts.latencySpikes} latency spikes, ${counts.restarts} restart; ${createRetries} create retries`,
    );
    expect(converged).toBe(FOOS);
    expect(broken).toEqual([]);
    expect(passes).toBeGreaterThanOrEqual(FOOS);
    expect(counts.restarts).toBe(1);
  },
);
