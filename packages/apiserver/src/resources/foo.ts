/**
 * foos.samplecontroller.k8s.io/v1alpha1, served as if kubernetes/sample-controller's
 * artifacts/examples/crd-status-subresource.yaml were installed: namespaced, status subresource,
 * no additional printer columns (so NAME and AGE only). Its fields are pruned and validated by
 * the schema of the Foo CRD as it is now (crd-serving.ts), as on a cluster.
 */
import { NAME_COLUMN, ageColumn } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { specChanged, type ResourceDef } from "./resource.ts";

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
  table: {
    columns: [NAME_COLUMN, ageColumn("date")],
    cells: (obj, now) => [obj.metadata.name, age(obj.metadata.creationTimestamp, now)],
  },
};
