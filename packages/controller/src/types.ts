/**
 * The Foo custom resource (kubernetes/sample-controller pkg/apis/samplecontroller/v1alpha1) and
 * the bits of Deployment the controller touches, as plain JSON shapes: watch events deliver raw
 * JSON, typed list decodes deliver the same fields.
 */
import type { V1Deployment } from "@kubernetes/client-node";

export const FOO_GROUP = "samplecontroller.k8s.io";
export const FOO_VERSION = "v1alpha1";
export const FOO_PLURAL = "foos";
export const FOO_KIND = "Foo";

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  ownerReferences?: OwnerReference[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [k: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface Foo {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: { deploymentName?: string; replicas?: number | null };
  status?: FooStatus;
}

export interface FooStatus {
  availableReplicas: number;
  /**
   * Only written with the hot-loop lesson on: a fresh timestamp every pass (the bug). Microsecond
   * RFC 3339 (like metav1.MicroTime) and deliberately not named *Time: API servers store
   * metav1.Time fields to the whole second, which would turn most buggy writes into no-ops and
   * hide the loop.
   */
  lastSyncedAt?: string;
}

export type Deployment = V1Deployment;

/** metav1.GetControllerOf: the owner reference with controller=true. */
export function controllerOf(obj: {
  metadata?: { ownerReferences?: OwnerReference[] };
}): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}
