/**
 * Steps several scenarios share: start from a clean slate, make a Foo, wait for something to show
 * in the trace. Each step talks to the cluster over HTTP (ctx.kube) like a user would.
 */
import type { V1Deployment } from "@kubernetes/client-node";
import type { Foo } from "@loopscope/controller";
import type { TraceEvent } from "@loopscope/trace";
import type { ScenarioContext } from "./scenario.ts";
import { loopscopeMayDelete } from "./made-by-loopscope.ts";

export const NS = "default";

export function fooKey(name: string): string {
  return `${NS}/${name}`;
}

/** artifacts/examples/example-foo.yaml with a name and replica count of our choosing. */
export function fooObject(name: string, replicas = 1): Foo {
  return {
    apiVersion: "samplecontroller.k8s.io/v1alpha1",
    kind: "Foo",
    metadata: { name, namespace: NS },
    spec: { deploymentName: name, replicas },
  };
}

/**
 * Removes the named Foos and any Deployment of the same name (owned or not: `not-owned` leaves
 * one behind), and waits until all are gone. The Deployment is deleted again while it lingers,
 * because a pass already in flight may recreate it before the controller sees the Foo go.
 *
 * Then it waits until the controller has forgotten the keys' failures: a key whose last pass
 * failed (`not-owned` ends so) waits out its backoff, and a Foo of that name created before the
 * retry runs would inherit the count — a second `not-owned` started at 40 s delays. The retry
 * finds the Foo gone, succeeds, and client-go's Forget resets it (within the pending delay).
 */
export async function startClean(ctx: ScenarioContext, names: string[]): Promise<void> {
  if (!ctx.session.apiserver) await refuseOthersObjects(ctx, names);
  const deleted = await Promise.all(names.map((n) => ctx.kube.deleteFoo(NS, n)));
  if (deleted.some(Boolean)) ctx.doing(`deleted ${names.filter((_, i) => deleted[i]).join(", ")}`);
  await ctx.kube.waitFor(`${names.join(", ")} and their Deployments to be gone`, async () => {
    const left = await Promise.all(
      names.map(async (n) => {
        const foo = await ctx.kube.getFoo(NS, n);
        const dep = await ctx.kube.getDeployment(NS, n);
        if (!foo && dep && !dep.metadata?.deletionTimestamp) await ctx.kube.deleteDeployment(NS, n);
        return foo !== undefined || dep !== undefined;
      }),
    );
    return !left.includes(true);
  });
  const queue = ctx.session.controller.queue;
  await ctx.kube.waitFor(
    `the controller to forget the failures of ${names.join(", ")} (its retry finds the Foo gone)`,
    () => Promise.resolve(names.every((n) => queue.numRequeues(fooKey(n)) === 0)),
    30_000,
    10,
  );
}

/**
 * On a kubeconfig's cluster (someone's own), a Foo or Deployment named like the scenario's that
 * loopscope did not make is not deleted: the scenario stops, naming it and the command that
 * would remove it. (The embedded cluster is loopscope's own: everything in it is fair game.)
 */
async function refuseOthersObjects(ctx: ScenarioContext, names: string[]): Promise<void> {
  const theirs: Array<{ kind: "foo" | "deployment"; name: string }> = [];
  for (const name of names) {
    const foo = await ctx.kube.getFoo(NS, name);
    if (foo && !loopscopeMayDelete(foo.metadata)) theirs.push({ kind: "foo", name });
    const dep = await ctx.kube.getDeployment(NS, name);
    if (dep && !loopscopeMayDelete(dep.metadata)) theirs.push({ kind: "deployment", name });
  }
  if (theirs.length === 0) return;
  const which = theirs.map((o) => `${o.kind} ${NS}/${o.name}`).join(", ");
  const remove = theirs.map((o) => `kubectl delete -n ${NS} ${o.kind} ${o.name}`).join("; ");
  throw new Error(
    // The scenario deletes nothing of theirs; the controller, though, reconciles every Foo on the
    // cluster from its start, theirs too (a Deployment for it, its status): not "nothing changed".
    `${which}: already on this cluster and not made by loopscope, which would delete ${theirs.length === 1 ? "it" : "them"} to start clean; the scenario deleted nothing${theirs.some((o) => o.kind === "foo") ? " (the controller reconciles every Foo on the cluster, that one too, as any controller would)" : ""}. To let the scenario run: ${remove}`,
  );
}

/** Applies a fresh Foo and waits until the controller brought it to `replicas` and went quiet. */
export async function createAndSettle(
  ctx: ScenarioContext,
  name: string,
  replicas = 1,
): Promise<void> {
  ctx.doing(`applying ${fooKey(name)} (replicas ${replicas})`);
  ctx.mark(`scenario: kubectl apply Foo ${name} (replicas ${replicas})`, fooKey(name));
  await ctx.kube.applyFoo(fooObject(name, replicas));
  await settledAt(ctx, name, replicas);
}

/** Waits until the key is quiescent and the Foo's status shows `replicas` available. */
export function settledAt(ctx: ScenarioContext, name: string, replicas: number): Promise<void> {
  return ctx.settled([fooKey(name)], {
    until: async () => (await ctx.kube.getFoo(NS, name))?.status?.availableReplicas === replicas,
  });
}

/** Polls the run's trace (every 20 ms) until `check` holds; gives up when the run is aborted. */
export async function untilTrace(
  ctx: ScenarioContext,
  what: string,
  check: (events: readonly TraceEvent[]) => boolean,
): Promise<void> {
  ctx.doing(`waiting for ${what}`);
  while (!check(ctx.events.events)) {
    if (ctx.signal.aborted) throw new Error(`aborted while waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A Deployment nobody owns, as a user might have made with `kubectl create deployment`. */
export function unownedDeployment(name: string): V1Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: NS, labels: { app: "someone-else" } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "someone-else" } },
      template: {
        metadata: { labels: { app: "someone-else" } },
        spec: { containers: [{ name: "web", image: "nginx:latest" }] },
      },
    },
  };
}

/** The embedded API server's fault injection, or a one-line error naming the scenario. */
export function needFaults(
  ctx: ScenarioContext,
  scenario: string,
): NonNullable<ScenarioContext["faults"]> {
  if (!ctx.faults)
    throw new Error(`scenario ${scenario} injects faults: it needs the embedded API server`);
  return ctx.faults;
}

/** Events of one key and stage, typed. */
export function ofKey<S extends TraceEvent["stage"]>(
  events: readonly TraceEvent[],
  key: string,
  stage: S,
): Extract<TraceEvent, { stage: S }>[] {
  return events.filter((e) => e.key === key && e.stage === stage) as Extract<
    TraceEvent,
    { stage: S }
  >[];
}
