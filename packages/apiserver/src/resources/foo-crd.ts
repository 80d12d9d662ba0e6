/**
 * The Foo CRD: the one `loopscope up --install-crd` creates on a real cluster, and the object the
 * embedded server starts with (it serves its built-in Foos while a CRD of this name does). It is
 * kubernetes/sample-controller's artifacts/examples/crd-status-subresource.yaml (status
 * subresource on — without it every UpdateStatus 404s, see sample-controller.md §1.6) with the
 * schema the embedded server validates by (FOO_SCHEMA), which adds one status field,
 * `lastSyncedAt`: the hot-loop lesson writes it, and pruned, its bug could not show.
 */
import { FOO_SCHEMA } from "./foo.ts";

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
