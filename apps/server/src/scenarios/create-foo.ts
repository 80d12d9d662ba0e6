/**
 * The exercise itself: delete example-foo if it is there, wait until it and its Deployment are
 * gone, apply artifacts/examples/example-foo.yaml, and wait until the controller has brought
 * status.availableReplicas to 1 and gone quiet.
 */
import type { Foo } from "@loopscope/controller";
import type { Scenario } from "./scenario.ts";
import { startClean } from "./steps.ts";

export const EXAMPLE_FOO: Foo = {
  apiVersion: "samplecontroller.k8s.io/v1alpha1",
  kind: "Foo",
  metadata: { name: "example-foo", namespace: "default" },
  spec: { deploymentName: "example-foo", replicas: 1 },
};

export const createFoo: Scenario = {
  name: "create-foo",
  title: "Create one Foo",
  teaches:
    "One kubectl apply causes several passes: the first is yours, the next ones are the controller reacting to its own writes and to the Deployment controller, until a pass changes nothing.",
  async run(ctx) {
    const ns = "default";
    const name = "example-foo";
    // Also removes a same-named Deployment nobody owns (what `not-owned` leaves behind).
    await startClean(ctx, [name]);
    ctx.doing(`applying ${ns}/${name}`);
    ctx.mark(`scenario: kubectl apply -f example-foo.yaml`, `${ns}/${name}`);
    await ctx.kube.applyFoo(EXAMPLE_FOO);
    await ctx.settled([`${ns}/${name}`], {
      until: async () => (await ctx.kube.getFoo(ns, name))?.status?.availableReplicas === 1,
    });
  },
};
