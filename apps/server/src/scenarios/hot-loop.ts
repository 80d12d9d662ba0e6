/**
 * The timestamp-in-status bug (the controller's `hotLoopBug` lesson): every pass writes a fresh
 * status.lastSyncedAt, so every status write changes the Foo, its echo enqueues the key again and
 * the next pass writes again — forever. The scenario ends once the analysis has named the hot
 * loop and a fixed number of passes went by (the same picture every run); runScenario then turns
 * the bug off, which ends the loop on a live dashboard.
 */
import type { Scenario } from "./scenario.ts";
import { fooKey, fooObject, startClean, untilTrace } from "./steps.ts";

const NAME = "example-foo";
/** Passes to show: enough past the analysis threshold (5) for the loop to be unmistakable. */
export const HOT_LOOP_PASSES = 12;

export const hotLoop: Scenario = {
  name: "hot-loop",
  title: "Hot loop: a timestamp in status",
  teaches:
    "A status field that differs on every pass (a timestamp) makes every status write a change; its echo triggers the next pass, which writes again: the writes never stop.",
  lessons: { hotLoopBug: true, idempotentStatus: false },
  async run(ctx) {
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    ctx.mark(`scenario: kubectl apply Foo ${NAME} with the timestamp-in-status bug on`, key);
    await ctx.kube.applyFoo(fooObject(NAME, 1));
    await untilTrace(ctx, `the hot-loop finding and ${HOT_LOOP_PASSES} passes`, () => {
      const s = ctx.events.analyzer.summary(key);
      return s !== undefined && s.hotLoop && s.passes >= HOT_LOOP_PASSES;
    });
    const finding = ctx.events.analyzer
      .findings()
      .find((f) => f.kind === "hot-loop" && f.key === key);
    // So far: the loop runs on until the scenario turns the bug off, so the trace ends longer.
    ctx.log(`hot loop: ${finding?.detail ?? "?"} (so far: it runs on until the scenario stops it)`);
    ctx.mark(`scenario: hot loop detected — ${finding?.detail ?? ""}`, key);
  },
};
