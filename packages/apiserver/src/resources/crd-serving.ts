/**
 * Whether a custom resource type is served, decided as apiextensions-apiserver decides it: while
 * its CustomResourceDefinition (named `<plural>.<group>`) exists and marks the type's version
 * served. Foos are built in here (their table), yet served only so: deleting the CRD takes the
 * Foo API away — its paths answer 404 and discovery no longer lists it — until the CRD is created
 * again. A CRD being deleted still serves its type, but refuses creates (apiextensions'
 * crd_handler: "create not allowed while custom resource definition is terminating"). Built-in
 * types are always served.
 *
 * What a served version's custom resources are pruned and validated by is its CRD's schema
 * (`spec.versions[].schema.openAPIV3Schema`), read from the CRD as it is now: a CRD applied again
 * with another schema, or deleted and created anew, governs the next write, as the new storage
 * apiextensions builds for it does.
 */
import { isPlainObject, type KObject } from "../object.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { crdResource } from "./crd.ts";
import type { ResourceDef } from "./resource.ts";
import type { JsonSchema } from "./schema.ts";

export type Serving = "served" | "terminating" | "not-served";

/** The name a type's CRD must have: "foos.samplecontroller.k8s.io". */
export function crdNameOf(def: ResourceDef): string {
  return `${def.plural}.${def.group}`;
}

/** The type's CRD and its entry for the type's version, when that version is served. */
function servedVersion(
  def: ResourceDef,
  store: ObjectStore,
): { crd: KObject; version: Record<string, unknown> } | undefined {
  const crd = store.get(crdResource, undefined, crdNameOf(def));
  const spec = isPlainObject(crd?.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const version = versions.find((v) => isPlainObject(v) && v.name === def.version && v.served) as
    Record<string, unknown> | undefined;
  return crd && version ? { crd, version } : undefined;
}

export function servingOf(def: ResourceDef, store: ObjectStore): Serving {
  if (def.builtIn) return "served";
  const served = servedVersion(def, store);
  if (!served) return "not-served";
  return served.crd.metadata.deletionTimestamp ? "terminating" : "served";
}

/**
 * The schema the type's objects are pruned and validated by: its served version's
 * openAPIV3Schema; undefined for a built-in type (its fields are its Go struct's) or a CRD
 * version without one (nothing pruned, as x-kubernetes-preserve-unknown-fields).
 */
export function schemaOf(def: ResourceDef, store: ObjectStore): JsonSchema | undefined {
  if (def.builtIn) return undefined;
  const schema = servedVersion(def, store)?.version.schema;
  const openApi = isPlainObject(schema) ? schema.openAPIV3Schema : undefined;
  return isPlainObject(openApi) ? (openApi as JsonSchema) : undefined;
}
