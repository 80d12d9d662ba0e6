/**
 * A Deployment named like the Foo's deploymentName already exists and is not controlled by the
 * Foo. Every pass records an ErrResourceExists event and returns the error; the key is re-added
 * rate-limited with the per-item exponential backoff (5 ms, 10 ms, 20 ms …). The scenario ends
 * after RETRIES retries; the pair stays (the next scenario cleans it up).
 */
import type { TraceEvent } from "@loopscope/trace";
import type { Scenario } from "./scenario.ts";
import { fooKey, fooObject, ofKey, startClean, unownedDeployment, untilTrace } from "./steps.ts";

const NAME = "example-foo";
/** Retries to show: 5 ms doubling six times is 5 … 160 ms, 315 ms in all. */
export const RETRIES = 6;

export const notOwned: Scenario = {
  name: "not-owned",
  title: "Not owned: a Deployment of the same name exists",
  teaches:
    "The controller refuses to adopt a Deployment it does not own: each pass fails with ErrResourceExists and the key comes back with a growing delay (5 ms, 10 ms, 20 ms …).",
  async run(ctx) {
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    // No watch event of it will follow: the Deployment handler only queues the Foo that controls
    // a Deployment, and this one names no controller — the note says so where a learner looks.
    ctx.mark(
      `scenario: kubectl create deployment ${NAME} (owned by nobody: the Deployment event handler ignores it, so no watch event of it appears)`,
      key,
    );
    ctx.doing(`creating deployment ${key}, owned by no Foo`);
    await ctx.kube.createDeployment(unownedDeployment(NAME));
    ctx.mark(`scenario: kubectl apply Foo ${NAME}`, key);
    // This run's passes only: a retry a previous run left pending runs during startClean — and
    // fails, with the backoff it had, if the informer has yet to see its Foo deleted.
    const from = ctx.events.events.length;
    ctx.doing(`applying ${key}`);
    await ctx.kube.applyFoo(fooObject(NAME, 1));
    const failed = (evs: readonly TraceEvent[]) =>
      ofKey(evs.slice(from), key, "done").filter((d) => d.outcome === "requeued").length;
    await untilTrace(ctx, `${RETRIES} rate-limited retries`, (evs) => failed(evs) >= RETRIES);
    // Let the last retry's delay elapse into its pass, so the trace ends on a retry pass.
    await untilTrace(ctx, "the last retry's pass", (evs) => failed(evs) > RETRIES);
    const delays = ofKey(ctx.events.events.slice(from), key, "done")
      .map((d) => d.delayMs)
      .filter((d) => d !== undefined);
    // The last pass failed too: its delay was running when the scenario ended, not a retry. (A
    // wait woken late, on a loaded machine, may have seen yet another failed pass: not told.)
    const waited = delays.slice(0, RETRIES);
    const pending = delays.slice(RETRIES, RETRIES + 1);
    ctx.log(
      `${waited.length} retries after delays of ${waited.join(", ")} ms` +
        (pending.length > 0 ? `; the next (${pending.join(", ")} ms) was pending at the end` : ""),
    );
  },
};
