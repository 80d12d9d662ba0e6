/**
 * foos.samplecontroller.k8s.io/v1alpha1, served as if kubernetes/sample-controller's
 * artifacts/examples/crd-status-subresource.yaml were installed: namespaced, status subresource,
 * spec.replicas 1..10, no additional printer columns (so NAME and AGE only).
 */
import { NAME_COLUMN, ageColumn } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { checkSchema, type JsonSchema } from "./schema.ts";
import { specChanged, type ResourceDef } from "./resource.ts";

/** openAPIV3Schema of the sample-controller CRD (artifacts/examples/crd-status-subresource.yaml). */
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
      // lastSyncedAt: the field the hot-loop lesson writes (as the CRD `--install-crd` creates);
      // pruned, every buggy write would be a no-op and the lesson could not show.
      properties: { availableReplicas: { type: "integer" }, lastSyncedAt: { type: "string" } },
    },
  },
};

export const fooResource: ResourceDef = {
  group: "samplecontroller.k8s.io",
  version: "v1alpha1",
  kind: "Foo",
  listKind: "FooList",
  plural: "foos",
  singular: "foo",
  namespaced: true,
  status: "custom-resource",
  scale: false,
  builtIn: false,
  unconditionalUpdate: false,
  // A CR's generation counts changes outside metadata; status is restored first, so: spec only.
  generationChanged: specChanged,
  prepareForCreate(obj) {
    delete obj.status;
  },
  prune: (obj, keep) => checkSchema(obj, FOO_SCHEMA, keep).unknown,
  // Pruned first (or refused, under Strict): nothing is left to delete.
  validate: (obj) => checkSchema(obj, FOO_SCHEMA, true).errors,
  table: {
    columns: [NAME_COLUMN, ageColumn("date")],
    cells: (obj, now) => [obj.metadata.name, age(obj.metadata.creationTimestamp, now)],
  },
};
