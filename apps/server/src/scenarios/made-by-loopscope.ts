/**
 * The label loopscope puts on the Foos and Deployments it creates (scenarios, the dashboard's
 * cluster buttons), so that on someone's own cluster a scenario deletes only what loopscope made:
 * a Foo or Deployment named like a scenario's, made by anyone else, is refused, not replaced.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";

export const MANAGED_BY = "app.kubernetes.io/managed-by";
export const LOOPSCOPE = "loopscope";

/** `metadata` with loopscope's label added. */
export function madeByLoopscope<M extends V1ObjectMeta>(metadata: M): M {
  return { ...metadata, labels: { ...metadata.labels, [MANAGED_BY]: LOOPSCOPE } };
}

/**
 * Whether loopscope made the object, or the controller made it for a Foo (a Deployment it
 * controls: it goes with its Foo).
 */
export function loopscopeMayDelete(metadata: V1ObjectMeta | undefined): boolean {
  if (metadata?.labels?.[MANAGED_BY] === LOOPSCOPE) return true;
  return (metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.kind === "Foo");
}
