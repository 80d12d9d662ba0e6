/**
 * The timestamp-in-status bug (the controller's `hotLoopBug` lesson): every pass writes a fresh
 * status.lastSyncedAt, so every status write changes the Foo, its echo enqueues the key again and
 * the next pass writes again — forever. The scenario ends once the analysis has named the hot
 * loop and a fixed number of passes went by (the same picture every run); runScenario then turns
 * the bug off, which ends the loop on a live dashboard, and the scenario says what it found once
 * the key is quiet (`afterLessons`): its counts are then the finding's for good.
 */
import type { Scenario, ScenarioContext } from "./scenario.ts";
import { fooKey, fooObject, startClean, untilTrace } from "./steps.ts";
import { prunedStatusField } from "./pruned-status-field.ts";

const NAME = "example-foo";
/** Passes to show: enough past the analysis threshold (5) for the loop to be unmistakable. */
export const HOT_LOOP_PASSES = 12;

/** The hot-loop finding's words, as the dashboard's Findings and `loopscope stats` give them. */
function hotLoopDetail(ctx: ScenarioContext): string {
  const key = fooKey(NAME);
  const finding = ctx.events.analyzer
    .findings()
    .find((f) => f.kind === "hot-loop" && f.key === key);
  return finding?.detail ?? "?";
}

export const hotLoop: Scenario = {
  name: "hot-loop",
  title: "Hot loop: a timestamp in status",
  teaches:
    "A status field that differs on every pass (a timestamp) makes every status write a change; its echo triggers the next pass, which writes again: the writes never stop.",
  lessons: { hotLoopBug: true, idempotentStatus: false },
  async run(ctx) {
    const key = fooKey(NAME);
    // Waiting for a loop that cannot come would end in a timeout that says nothing of why.
    if (await prunedStatusField(ctx.kube, "lastSyncedAt"))
      throw new Error(
        "the cluster's Foo CRD declares no status.lastSyncedAt, so the server prunes the timestamp the bug writes: each status write stores nothing new and no hot loop comes. kubectl apply -f public/manifests/crd.yaml (loopscope's Foo CRD, which declares it) and run it again",
      );
    await startClean(ctx, [NAME]);
    ctx.mark(`scenario: kubectl apply Foo ${NAME} with the timestamp-in-status bug on`, key);
    ctx.doing(`applying ${key}`);
    await ctx.kube.applyFoo(fooObject(NAME, 1));
    await untilTrace(ctx, `the hot-loop finding and ${HOT_LOOP_PASSES} passes`, () => {
      const s = ctx.events.analyzer.summary(key);
      return s !== undefined && s.hotLoop && s.passes >= HOT_LOOP_PASSES;
    });
    ctx.mark(`scenario: hot loop detected — ${hotLoopDetail(ctx)}`, key);
  },
  async afterLessons(ctx, stopped) {
    const key = fooKey(NAME);
    if (!stopped) {
      // Headless, the controller keeps the bug until the run ends: the trace will count more.
      ctx.log(`hot loop: ${hotLoopDetail(ctx)} (so far: the loop runs on until the run ends)`);
      return;
    }
    // The bug is off: the pass in flight writes once more, its echo finds nothing to change.
    await ctx.settled([key]);
    ctx.mark("scenario: the bug switched off, the loop stopped: the key is quiet again", key);
    ctx.log(`hot loop: ${hotLoopDetail(ctx)}; it stopped once the bug was switched off`);
  },
};
