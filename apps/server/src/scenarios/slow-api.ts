/**
 * A slow API server: every write (create, update, patch, delete) takes WRITE_LATENCY_MS more.
 * Passes get long; the Deployment controller's updates and our own echoes arrive while a worker
 * still holds the key, so they are parked ("processing") and merged into one next pass. Fewer
 * passes than watch events — the workqueue's dedup at work.
 */
import type { Verb } from "@loopscope/apiserver";
import type { Scenario } from "./scenario.ts";
import { fooKey, fooObject, needFaults, settledAt, startClean } from "./steps.ts";

const NAME = "example-foo";
export const WRITE_LATENCY_MS = 250;
const WRITES: Verb[] = ["create", "update", "patch", "delete"];

export const slowApi: Scenario = {
  name: "slow-api",
  title: "Slow API: writes take 250 ms",
  teaches:
    "When writes are slow, passes are long: events that arrive while a worker holds the key are parked and merged into a single next pass.",
  injectsFaults: true,
  async run(ctx) {
    const faults = needFaults(ctx, "slow-api");
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    ctx.mark(`scenario: every write now takes ${WRITE_LATENCY_MS} ms more`, key);
    for (const v of WRITES) faults.setLatency(v, WRITE_LATENCY_MS);
    try {
      ctx.mark(`scenario: kubectl apply Foo ${NAME}`, key);
      ctx.doing(`applying ${key}`);
      await ctx.kube.applyFoo(fooObject(NAME, 1));
      await settledAt(ctx, NAME, 1);
    } finally {
      for (const v of WRITES) faults.setLatency(v, 0);
    }
  },
};
