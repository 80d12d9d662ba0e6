/**
 * How a CustomResourceDefinition is deleted, as apiextensions-apiserver deletes one: the delete
 * only marks it (deletionTimestamp, the `customresourcecleanup.apiextensions.k8s.io` finalizer,
 * a Terminating condition — its REST storage's Delete); the CRD finalizer controller
 * (actors/crd-finalizer.ts) then deletes every custom resource of the type and removes the
 * finalizer, and the CRD is gone.
 */
import { clone, isPlainObject, type KObject } from "../object.ts";

export const CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

/** The reasons and messages apiextensions' controllers give the Terminating condition. */
export const DELETION_PENDING = {
  reason: "InstanceDeletionPending",
  message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
};
export const DELETION_IN_PROGRESS = {
  reason: "InstanceDeletionInProgress",
  message: "CustomResource deletion is in progress",
};

/**
 * `crd` with its Terminating condition set (SetCRDCondition: the transition time changes only
 * when the status does).
 */
export function withTerminating(
  crd: KObject,
  why: { reason: string; message: string },
  now: string,
): KObject {
  const next = clone(crd);
  const status = isPlainObject(next.status) ? next.status : (next.status = {});
  const conditions = (Array.isArray(status.conditions) ? status.conditions : []) as Record<
    string,
    unknown
  >[];
  const old = conditions.find((c) => c.type === "Terminating");
  const condition = {
    type: "Terminating",
    status: "True",
    lastTransitionTime: old?.status === "True" ? old.lastTransitionTime : now,
    ...why,
  };
  status.conditions = old
    ? conditions.map((c) => (c === old ? condition : c))
    : [...conditions, condition];
  return next;
}

/** The delete's own change: marked, finalizer added, condition Pending. */
export function markedForDeletion(crd: KObject, now: string): KObject {
  const next = withTerminating(crd, DELETION_PENDING, now);
  next.metadata.deletionTimestamp ??= now;
  const finalizers = next.metadata.finalizers ?? [];
  if (!finalizers.includes(CLEANUP_FINALIZER))
    next.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
  return next;
}
