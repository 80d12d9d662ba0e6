/**
 * Whether a custom resource type is served, decided as apiextensions-apiserver decides it: while
 * its CustomResourceDefinition (named `<plural>.<group>`) exists and marks the type's version
 * served. Foos are built in here (their schema, their table), yet served only so: deleting the
 * CRD takes the Foo API away — its paths answer 404 and discovery no longer lists it — until the
 * CRD is created again. A CRD being deleted still serves its type, but refuses creates
 * (apiextensions' crd_handler: "create not allowed while custom resource definition is
 * terminating"). Built-in types are always served.
 */
import { isPlainObject } from "../object.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { crdResource } from "./crd.ts";
import type { ResourceDef } from "./resource.ts";

export type Serving = "served" | "terminating" | "not-served";

/** The name a type's CRD must have: "foos.samplecontroller.k8s.io". */
export function crdNameOf(def: ResourceDef): string {
  return `${def.plural}.${def.group}`;
}

export function servingOf(def: ResourceDef, store: ObjectStore): Serving {
  if (def.builtIn) return "served";
  const crd = store.get(crdResource, undefined, crdNameOf(def));
  const spec = isPlainObject(crd?.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const served = versions.some((v) => isPlainObject(v) && v.name === def.version && v.served);
  if (!crd || !served) return "not-served";
  return crd.metadata.deletionTimestamp ? "terminating" : "served";
}
