/**
 * Fields a built-in type declares, for what the real server's JSON decoding does with any other:
 * Go's struct decoding drops an unknown field, and with `fieldValidation=Strict` (kubectl's
 * default since 1.27) reports it, `strict decoding error: unknown field "spec.replica"`; with
 * `Warn` (the server's default) it is dropped and named in a `Warning` header.
 *
 * Only what is listed is checked: a subtree marked ANY accepts whatever it holds (a Pod
 * template's spec, a status), so a field a real cluster accepts is never refused — ObjectMeta
 * is the full metav1.ObjectMeta, every kind's `metadata`. Custom resources' fields beyond
 * metadata are their schema's (schema.ts).
 */
import { getOwn, isPlainObject } from "../object.ts";

/** Anything beneath is accepted unchecked. */
export const ANY = "any";

/**
 * Declared field names, nested; an array's items are checked against the same tree as the
 * array's field. `"*": ANY` accepts undeclared names at that level.
 */
export interface FieldTree {
  readonly [name: string]: FieldTree | typeof ANY;
}

/** metav1.ObjectMeta's JSON fields (k8s.io/apimachinery/pkg/apis/meta/v1/types.go). */
export const OBJECT_META: FieldTree = {
  name: ANY,
  generateName: ANY,
  namespace: ANY,
  selfLink: ANY,
  uid: ANY,
  resourceVersion: ANY,
  generation: ANY,
  creationTimestamp: ANY,
  deletionTimestamp: ANY,
  deletionGracePeriodSeconds: ANY,
  labels: ANY,
  annotations: ANY,
  ownerReferences: {
    apiVersion: ANY,
    kind: ANY,
    name: ANY,
    uid: ANY,
    controller: ANY,
    blockOwnerDeletion: ANY,
  },
  finalizers: ANY,
  managedFields: ANY,
};

/** What is checked of a type that declares nothing more: its metadata. */
export const METADATA_ONLY: FieldTree = { metadata: OBJECT_META, "*": ANY };

/**
 * Appends to `out` the dotted paths (`spec.template.metadata.lables`, `a.b[0].c`) of the fields
 * of `value` that `tree` does not declare, in the body's order, and deletes them unless `keep`
 * (Strict: the request fails, nothing is stored).
 */
export function unknownFields(
  value: unknown,
  tree: FieldTree,
  keep: boolean,
  out: string[],
  path = "",
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, tree, keep, out, `${path}[${i}]`));
    return;
  }
  if (!isPlainObject(value)) return;
  const open = getOwn(tree, "*") === ANY;
  for (const key of Object.keys(value)) {
    const child = getOwn(tree, key) as FieldTree | typeof ANY | undefined;
    const at = path ? `${path}.${key}` : key;
    if (child === undefined) {
      if (open) continue;
      out.push(at);
      if (!keep) delete value[key];
    } else if (child !== ANY) unknownFields(getOwn(value, key), child, keep, out, at);
  }
}
