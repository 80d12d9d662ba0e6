/**
 * Structural defaulting, as apiextensions does it after pruning (pkg/apiserver/schema/defaulting:
 * PruneNonNullableNullsWithoutDefaults, then Default):
 *
 * - a `null` where the schema does not say `nullable: true` and has no default is dropped, as if
 *   the field were not sent (a nullable one keeps its null);
 * - then, from the root down, each object first gets the defaults of its declared properties that
 *   are missing (or null and not nullable), and only then are its values walked — so a default
 *   `{}` for a parent object is filled in, and its children's defaults after it. A default is
 *   applied only where its parent is present; an array's null items take the items' default, an
 *   additionalProperties map's null values that of its values.
 *
 * A default is copied, and pruned by its place's schema first, as a cluster prunes every default
 * when it builds a CRD's serving (PruneDefaults). It follows the value's shape, as pruning does.
 */
import { clone, getOwn, hasOwn, isPlainObject, setOwn } from "../object.ts";
import { prunedValue } from "./schema-pruning.ts";
import { fieldSchema, itemsSchema, propertiesOf, ROOT_FIELDS, type JsonSchema } from "./schema.ts";

/** Drops the nulls `schema` does not allow from `obj`, then fills in its defaults, in place. */
export function defaultFields(obj: Record<string, unknown>, schema: JsonSchema): void {
  dropNulls(obj, schema, true);
  fillDefaults(obj, schema, true);
}

/** A schema's default; JSON null is none (apiextensions reads `default: null` as unset). */
function defaultOf(schema: JsonSchema | undefined): unknown {
  return schema?.default ?? undefined;
}

/** A null the schema refuses, to be replaced by its default if it has one. */
function isRefusedNull(value: unknown, schema: JsonSchema | undefined): boolean {
  return value === null && schema !== undefined && schema.nullable !== true;
}

function freshDefault(schema: JsonSchema): unknown {
  return prunedValue(clone(defaultOf(schema)), schema);
}

function dropNulls(value: unknown, schema: JsonSchema | undefined, root: boolean): void {
  if (Array.isArray(value)) {
    // An array keeps its items, null or not: a refused null item fails validation instead.
    const items = schema && itemsSchema(schema);
    for (const item of value) dropNulls(item, items, false);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    const child = schema && fieldSchema(schema, key);
    const v = value[key];
    if (isRefusedNull(v, child) && defaultOf(child) === undefined) delete value[key];
    else dropNulls(v, child, false);
  }
}

function fillDefaults(value: unknown, schema: JsonSchema | undefined, root: boolean): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    if (!items) return;
    value.forEach((item, i) => {
      if (isRefusedNull(item, items) && defaultOf(items) !== undefined)
        value[i] = freshDefault(items);
      fillDefaults(value[i], items, false);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, property] of propertiesOf(schema)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    if (defaultOf(property) === undefined) continue;
    if (!hasOwn(value, key) || isRefusedNull(getOwn(value, key), property))
      setOwn(value, key, freshDefault(property));
  }
  for (const key of Object.keys(value)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    const child = fieldSchema(schema, key);
    if (isRefusedNull(value[key], child) && defaultOf(child) !== undefined)
      setOwn(value, key, freshDefault(child as JsonSchema));
    fillDefaults(value[key], child, false);
  }
}
