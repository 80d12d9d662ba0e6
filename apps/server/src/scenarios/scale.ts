/**
 * Scale example-foo from 1 to 3 replicas. The spec change is an external trigger; the pass
 * updates the Deployment's spec.replicas, and the Deployment controller's status updates bring
 * the Foo's status to 3 over the next few passes.
 */
import type { Scenario } from "./scenario.ts";
import { createAndSettle, fooKey, fooObject, settledAt, startClean } from "./steps.ts";

const NAME = "example-foo";

export const scale: Scenario = {
  name: "scale",
  title: "Scale a Foo from 1 to 3 replicas",
  teaches:
    "A spec change is an external trigger: the pass updates the Deployment's spec.replicas, and the Deployment controller's progress comes back as more passes until status shows 3.",
  async run(ctx) {
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME, 1);
    // A command an instructor can type for the room as it stands.
    ctx.mark(
      `scenario: kubectl patch foo ${NAME} --type=merge -p '{"spec":{"replicas":3}}'`,
      fooKey(NAME),
    );
    ctx.doing(`applying ${fooKey(NAME)} (replicas 3)`);
    await ctx.kube.applyFoo(fooObject(NAME, 3));
    await settledAt(ctx, NAME, 3);
  },
};
