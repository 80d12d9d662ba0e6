/**
 * The exercise itself: delete example-foo if it is there, wait until it and its Deployment are
 * gone, apply artifacts/examples/example-foo.yaml, and wait until the controller has brought
 * status.availableReplicas to 1 and gone quiet.
 */
import type { Foo } from "@loopscope/controller";
import type { Scenario } from "./scenario.ts";

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
    if (await ctx.kube.deleteFoo(ns, name)) {
      ctx.log(`deleted existing ${ns}/${name}; waiting for it and its Deployment to go`);
      await ctx.kube.waitFor(
        `${ns}/${name} to be deleted`,
        async () => !(await ctx.kube.getFoo(ns, name)),
      );
      await ctx.kube.waitFor(
        `deployment ${ns}/${name} to be garbage-collected`,
        async () => !(await ctx.kube.getDeployment(ns, name)),
      );
    }
    ctx.log(`applying ${ns}/${name}`);
    await ctx.kube.applyFoo(EXAMPLE_FOO);
    await ctx.settled([`${ns}/${name}`], {
      until: async () => (await ctx.kube.getFoo(ns, name))?.status?.availableReplicas === 1,
    });
  },
};
