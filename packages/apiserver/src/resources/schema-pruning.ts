/**
 * Pruning, as apiextensions' structural pruning does it (pkg/apiserver/schema/pruning): a field
 * the schema does not declare is dropped, and its path reported (a warning, or under Strict a
 * 400). It follows the value's shape, not the schema's `type`: an object's keys by `properties`,
 * then `additionalProperties`; an array's items by `items`; where there is no schema, an object
 * keeps no key. `x-kubernetes-preserve-unknown-fields` keeps the undeclared fields of its object,
 * while the fields it declares are pruned as usual. The root's apiVersion, kind and metadata are
 * the server's.
 */
import { isPlainObject } from "../object.ts";
import { fieldSchema, itemsSchema, joinPath, ROOT_FIELDS, type JsonSchema } from "./schema.ts";

/** Deletes what `schema` does not declare from `obj`; returns the paths, sorted as a cluster's. */
export function pruneUnknown(obj: Record<string, unknown>, schema: JsonSchema): string[] {
  const pruned: string[] = [];
  prune(obj, schema, "", pruned, true);
  return pruned.sort();
}

/** Prunes a value (a schema's `default`) by the schema of the place it goes. */
export function prunedValue(value: unknown, schema: JsonSchema): unknown {
  prune(value, schema, "", [], false);
  return value;
}

function prune(
  value: unknown,
  schema: JsonSchema | undefined,
  path: string,
  pruned: string[],
  root: boolean,
): void {
  if (schema?.["x-kubernetes-preserve-unknown-fields"] === true) {
    keepUnknown(value, schema, path, pruned, root);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema && itemsSchema(schema);
    value.forEach((item, i) => prune(item, items, `${path}[${i}]`, pruned, false));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    const child = schema && fieldSchema(schema, key);
    if (child) {
      prune(value[key], child, joinPath(path, key), pruned, false);
    } else {
      pruned.push(joinPath(path, key));
      delete value[key];
    }
  }
}

/**
 * Under x-kubernetes-preserve-unknown-fields: undeclared fields stay, declared ones are pruned
 * by their schema; an array's items keep their undeclared fields too.
 */
function keepUnknown(
  value: unknown,
  schema: JsonSchema,
  path: string,
  pruned: string[],
  root: boolean,
): void {
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    if (items) value.forEach((item, i) => keepUnknown(item, items, `${path}[${i}]`, pruned, false));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    const child = fieldSchema(schema, key);
    if (child) prune(value[key], child, joinPath(path, key), pruned, false);
  }
}
