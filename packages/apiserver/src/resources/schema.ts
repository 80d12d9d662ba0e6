/**
 * A small structural-schema checker for CRD openAPIV3Schema: type, minimum/maximum, enum,
 * required, and pruning of undeclared fields (an object's `properties`, or each value by its
 * `additionalProperties`; an object schema with neither keeps none, as apiextensions' pruning
 * does) — what the apiextensions server does to a custom resource before storing it. The schema
 * is the CRD's, as a client applied it: a keyword of the wrong JSON type is ignored, never
 * trusted. Other keywords (pattern, lengths, defaults, CEL rules …) are not checked.
 */
import type { FieldError } from "../errors.ts";
import { getOwn, isPlainObject } from "../object.ts";

export interface JsonSchema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  additionalProperties?: JsonSchema;
  description?: string;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
}

export interface SchemaResult {
  errors: FieldError[];
  /** Dotted paths of fields the schema does not declare (pruned unless strict). */
  unknown: string[];
}

/** Fields every object has that no CRD schema lists. */
const ROOT_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

/** Checks `obj` against `schema`, deleting undeclared fields from it in place unless `strict`. */
export function checkSchema(
  obj: Record<string, unknown>,
  schema: JsonSchema,
  strict: boolean,
): SchemaResult {
  const result: SchemaResult = { errors: [], unknown: [] };
  walkObject(obj, schema, "", strict, result, true);
  return result;
}

function walk(
  value: unknown,
  schema: JsonSchema,
  path: string,
  strict: boolean,
  out: SchemaResult,
): void {
  if (value === null || value === undefined) return;
  const typeError = checkType(value, schema, path);
  if (typeError) {
    out.errors.push(typeError);
    return;
  }
  if (typeof value === "number") {
    const { minimum, maximum } = schema;
    if (typeof minimum === "number" && value < minimum) {
      out.errors.push(invalidValue(path, value, `should be greater than or equal to ${minimum}`));
    }
    if (typeof maximum === "number" && value > maximum) {
      out.errors.push(invalidValue(path, value, `should be less than or equal to ${maximum}`));
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    out.errors.push({
      reason: "FieldValueNotSupported",
      field: path,
      detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`,
    });
  }
  if (schema.type === "object" && isPlainObject(value))
    walkObject(value, schema, path, strict, out, false);
  const items = schema.items;
  if (schema.type === "array" && Array.isArray(value) && isPlainObject(items)) {
    value.forEach((item, i) => walk(item, items, `${path}[${i}]`, strict, out));
  }
}

function walkObject(
  obj: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
  strict: boolean,
  out: SchemaResult,
  root: boolean,
): void {
  for (const req of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof req === "string" && getOwn(obj, req) === undefined) {
      out.errors.push({
        reason: "FieldValueRequired",
        field: join(path, req),
        detail: "Required value",
      });
    }
  }
  if (schema["x-kubernetes-preserve-unknown-fields"] === true) return;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const additional = isPlainObject(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const [key, value] of Object.entries(obj)) {
    if (root && ROOT_FIELDS.has(key)) continue;
    // Own keys only: a field named "constructor" is not declared by Object.prototype's.
    const declared = getOwn(properties, key);
    const child = isPlainObject(declared) ? (declared as JsonSchema) : additional;
    if (!child) {
      out.unknown.push(join(path, key));
      if (!strict) delete obj[key];
      continue;
    }
    walk(value, child, join(path, key), strict, out);
  }
}

function checkType(value: unknown, schema: JsonSchema, path: string): FieldError | undefined {
  const ok =
    schema.type === undefined ||
    (schema.type === "object" && isPlainObject(value)) ||
    (schema.type === "array" && Array.isArray(value)) ||
    (schema.type === "string" && typeof value === "string") ||
    (schema.type === "boolean" && typeof value === "boolean") ||
    (schema.type === "number" && typeof value === "number") ||
    (schema.type === "integer" && typeof value === "number" && Number.isInteger(value));
  if (ok) return undefined;
  // The value's JSON type, as the OpenAPI validator names it ("three" is a "string").
  const shown = jsonType(value);
  return {
    reason: "FieldValueTypeInvalid",
    field: path,
    detail: `Invalid value: "${shown}": ${path} in body must be of type ${schema.type}: "${shown}"`,
  };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function invalidValue(path: string, value: number, rule: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field: path,
    detail: `Invalid value: ${value}: ${path} in body ${rule}`,
  };
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
