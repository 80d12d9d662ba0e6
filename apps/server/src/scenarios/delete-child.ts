/**
 * Delete the Deployment a Foo owns. The Deployment informer's delete event resolves to the owning
 * Foo, the pass finds no Deployment in the lister and creates it again: the controller repairs
 * what it owns.
 */
import type { Scenario } from "./scenario.ts";
import { NS, createAndSettle, fooKey, settledAt, startClean, untilTrace, ofKey } from "./steps.ts";

const NAME = "example-foo";

export const deleteChild: Scenario = {
  name: "delete-child",
  title: "Delete the Foo's Deployment",
  teaches:
    "The Deployment's delete event is resolved to its owner Foo; the pass finds no Deployment and creates it again — the controller repairs what it owns.",
  async run(ctx) {
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME);
    const creates = ofKey(ctx.events.events, key, "write").filter((w) => w.verb === "create");
    ctx.mark(`scenario: kubectl delete deployment ${NAME}`, key);
    ctx.doing(`deleting deployment ${key}`);
    await ctx.kube.deleteDeployment(NS, NAME);
    await untilTrace(ctx, "the controller to create the Deployment again", (evs) =>
      ofKey(evs, key, "write").some(
        (w) => w.verb === "create" && (w.code ?? 0) < 300 && !creates.includes(w),
      ),
    );
    await settledAt(ctx, NAME, 1);
    const evs = ctx.events.events;
    const again = ofKey(evs, key, "write").find(
      (w) => w.verb === "create" && (w.code ?? 0) < 300 && !creates.includes(w),
    );
    const pass = ctx.events.analyzer
      .passes(key)
      .find((p) => again !== undefined && p.writeSeqs.includes(again.seq));
    ctx.log(
      `the Deployment's delete came back as a watch event of its owner ${NAME}; ` +
        `pass ${pass?.number ?? "?"} found no Deployment in the lister and created it again`,
    );
  },
};
