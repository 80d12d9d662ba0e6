/**
 * What apiextensions-apiserver does to a custom resource each time it decodes one by its CRD's
 * schema: it prunes it, drops the nulls the schema does not allow, and fills in its defaults. It
 * decodes so both a request's body (create, update, patch: before validation) and an object it
 * reads back from storage — "Defaulting happens on the object: in the request to the API server
 * using the request version defaults, when reading from etcd using the storage version defaults"
 * (kubernetes.io, Extend the Kubernetes API with CustomResourceDefinitions, Defaulting; the CR
 * storage's codec carries the same pruning and defaulting, customresource_handler.go).
 *
 * A read here decodes the stored object by the CRD's schema as it is now (crd-serving.ts): a
 * cluster rebuilds a CRD's storage, and its watch cache, when the CRD changes, so what a get or a
 * list returns after a CRD is applied again with a new default, or without a field, is the stored
 * object pruned and defaulted anew — same resourceVersion, no watch event — until its next write
 * stores it so. Foos are stored as v1alpha1, the version served here, so its schema is the
 * storage version's too.
 */
import { clone, deepEqual, deepFreeze, type KObject } from "../object.ts";
import { defaultFields } from "./schema-defaulting.ts";
import { pruneUnknown } from "./schema-pruning.ts";
import type { JsonSchema } from "./schema.ts";

/** Decodes `obj` in place; returns the paths of the fields pruned. */
export function decodeBySchema(obj: KObject, schema: JsonSchema): string[] {
  const pruned = pruneUnknown(obj, schema);
  defaultFields(obj, schema);
  return pruned;
}

/**
 * A stored object's last decoding, and the schema it was by. Both are frozen snapshots, replaced
 * (never changed) on a write, so the view is good as long as neither is replaced.
 */
const views = new WeakMap<KObject, { schema: JsonSchema; view: KObject }>();

/** The stored object as a read returns it (itself when decoding changes nothing). */
export function readBySchema(stored: KObject, schema: JsonSchema): KObject {
  const last = views.get(stored);
  if (last?.schema === schema) return last.view;
  const decoded = clone(stored);
  decodeBySchema(decoded, schema);
  const view = deepEqual(decoded, stored) ? stored : deepFreeze(decoded);
  views.set(stored, { schema, view });
  return view;
}
