/**
 * BURST_SIZE Foos applied at once. With one worker the queue fills and drains one key at a time;
 * Deployment events for keys still waiting are merged ("dirty") into the pass they are waiting
 * for. With four workers (`burst-4`) passes of different keys run side by side — never two of the
 * same key, the workqueue's guarantee.
 */
import type { Scenario } from "./scenario.ts";
import { fooKey, fooObject, startClean } from "./steps.ts";

export const BURST_SIZE = 8;
export const BURST_NAMES = Array.from(
  { length: BURST_SIZE },
  (_, i) => `burst-${String(i + 1).padStart(2, "0")}`,
);

function burstScenario(workers: number): Scenario {
  return {
    name: workers === 1 ? "burst" : `burst-${workers}`,
    title: `Burst: ${BURST_SIZE} Foos at once, ${workers} worker${workers === 1 ? "" : "s"}`,
    teaches:
      workers === 1
        ? "One worker drains the queue one key at a time: the queue grows, and events for keys still waiting merge into the pass they wait for."
        : `${workers} workers take different keys in parallel (never the same key twice at once): passes overlap and the queue drains faster.`,
    session: { workers },
    async run(ctx) {
      await startClean(ctx, BURST_NAMES);
      // The workers this controller has: a dashboard's session keeps its own count.
      const running = ctx.session.controller.workerCount;
      // Tied to the first of them: a dashboard that ran it shows that one's lanes.
      ctx.mark(
        `scenario: kubectl apply ${BURST_SIZE} Foos at once (${running} worker${running === 1 ? "" : "s"})`,
        fooKey(BURST_NAMES[0]!),
      );
      ctx.doing(`applying ${BURST_NAMES.length} Foos at once`);
      await Promise.all(BURST_NAMES.map((n) => ctx.kube.applyFoo(fooObject(n, 1))));
      await ctx.settled(BURST_NAMES.map(fooKey), {
        until: async () => {
          const foos = await Promise.all(BURST_NAMES.map((n) => ctx.kube.getFoo("default", n)));
          return foos.every((f) => f?.status?.availableReplicas === 1);
        },
      });
    },
  };
}

export const burst = burstScenario(1);
export const burst4 = burstScenario(4);
