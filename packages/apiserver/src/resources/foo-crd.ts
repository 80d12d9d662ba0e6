/**
 * The Foo CRD: the one `loopscope up --install-crd` creates on a real cluster, the object the
 * embedded server starts with, and public/manifests/crd.yaml (a test keeps the two alike). It is
 * kubernetes/sample-controller's artifacts/examples/crd-status-subresource.yaml (status
 * subresource on — without it every UpdateStatus 404s, see sample-controller.md §1.6) with one
 * status field more, `lastSyncedAt`: the hot-loop lesson writes it, and pruned, its bug could not
 * show. Foos are pruned and validated by the schema of the CRD as it is (crd-serving.ts), this
 * one's until a client applies another.
 */
import type { JsonSchema } from "./schema.ts";

/** Its openAPIV3Schema. */
export const FOO_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        deploymentName: { type: "string" },
        replicas: { type: "integer", minimum: 1, maximum: 10 },
      },
    },
    status: {
      type: "object",
      properties: { availableReplicas: { type: "integer" }, lastSyncedAt: { type: "string" } },
    },
  },
};

export const FOO_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: {
    name: "foos.samplecontroller.k8s.io",
    annotations: {
      "api-approved.kubernetes.io":
        "unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups",
    },
  },
  spec: {
    group: "samplecontroller.k8s.io",
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        schema: { openAPIV3Schema: FOO_SCHEMA },
        subresources: { status: {} },
      },
    ],
    names: { kind: "Foo", plural: "foos" },
    scope: "Namespaced",
  },
};
