/**
 * The Foo CRD: the one `loopscope up --install-crd` creates on a real cluster, and the object the
 * embedded server lists (it serves Foos built in, as if this were installed): kubernetes/sample-controller's
 * artifacts/examples/crd-status-subresource.yaml (status subresource on — without it every
 * UpdateStatus 404s, see sample-controller.md §1.6), plus one status field, `lastSyncedAt`
 * (a microsecond timestamp), which the hot-loop lesson writes. Without it in the schema the API server would prune the field and
 * the lesson's bug could not show.
 */
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
        schema: {
          openAPIV3Schema: {
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
                properties: {
                  availableReplicas: { type: "integer" },
                  lastSyncedAt: { type: "string" },
                },
              },
            },
          },
        },
        subresources: { status: {} },
      },
    ],
    names: { kind: "Foo", plural: "foos" },
    scope: "Namespaced",
  },
};
