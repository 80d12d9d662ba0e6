/**
 * Create example-foo, delete it, create it again. sample-controller registers no Foo delete
 * handler: the delete shows only as the garbage-collected Deployment's delete event, which
 * resolves to no Foo any more (the lister already dropped it) and is ignored as an orphan — no
 * enqueue, no pass. The second create is a new object (new uid) and replays the first sequence.
 */
import type { Scenario } from "./scenario.ts";
import { NS, createAndSettle, fooKey, startClean, untilTrace } from "./steps.ts";

const NAME = "example-foo";

export const deleteAndRecreate: Scenario = {
  name: "delete-and-recreate",
  title: "Delete a Foo and create it again",
  teaches:
    "The controller has no Foo delete handler: the delete shows only as its Deployment's delete event, which resolves to no Foo any more and is ignored. The new Foo starts the sequence over.",
  async run(ctx) {
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME);
    ctx.mark(`scenario: kubectl delete foo ${NAME}`, key);
    ctx.doing(`deleting ${key}`);
    await ctx.kube.deleteFoo(NS, NAME);
    ctx.doing(`waiting for deployment ${key} to be garbage-collected`);
    await ctx.kube.waitFor(
      `deployment ${key} to be garbage-collected`,
      async () => !(await ctx.kube.getDeployment(NS, NAME)),
    );
    // Usually the Foo informer has dropped the Foo first and the Deployment's delete is an orphan;
    // if the Deployment's event wins the race, a pass finds the Foo gone instead.
    await untilTrace(
      ctx,
      "the Deployment's delete event (an orphan) or a pass finding the Foo gone",
      (evs) =>
        evs.some(
          (e) =>
            (e.stage === "watch" &&
              e.key === "" &&
              e.kind === "Deployment" &&
              e.event === "delete") ||
            (e.stage === "read" && e.key === key && e.found === false),
        ),
    );
    await createAndSettle(ctx, NAME);
  },
};
