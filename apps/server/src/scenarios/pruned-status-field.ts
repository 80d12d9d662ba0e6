/**
 * Whether the cluster's Foo CRD prunes a status field a lesson writes. A cluster keeps only the
 * fields its CRD's schema declares: under sample-controller's own CRD (its status declares
 * availableReplicas alone) the hot-loop bug's fresh status.lastSyncedAt is dropped, each status
 * write stores nothing new, no echo comes — and no hot loop to show. loopscope's CRD
 * (public/manifests/crd.yaml) declares it.
 */
import { ApiextensionsV1Api, type V1JSONSchemaProps } from "@kubernetes/client-node";
import { FOO_GROUP, FOO_PLURAL, FOO_VERSION } from "@loopscope/controller";
import type { KubeClient } from "./kube-client.ts";

/** True when pruned, false when kept; undefined when the CRD cannot be read (RBAC, say). */
export async function prunedStatusField(
  kube: KubeClient,
  field: string,
): Promise<boolean | undefined> {
  let crd;
  try {
    crd = await kube.kubeConfig
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: `${FOO_PLURAL}.${FOO_GROUP}` });
  } catch {
    return undefined;
  }
  const root = crd.spec.versions.find((v) => v.name === FOO_VERSION)?.schema?.openAPIV3Schema;
  if (root === undefined) return undefined;
  const status = root.properties?.status;
  if (status === undefined) return !keepsUnknown(root);
  return !keepsUnknown(status) && status.properties?.[field] === undefined;
}

function keepsUnknown(s: V1JSONSchemaProps): boolean {
  return s.x_kubernetes_preserve_unknown_fields === true;
}
