/**
 * A CRD's openAPIV3Schema, and how a custom resource goes through it — what apiextensions-apiserver
 * (Kubernetes 1.32) does to one before storing it, and again as it reads one back:
 *
 * 1. pruning (schema-pruning.ts): fields the schema does not declare are dropped (an object's
 *    `properties`, or each value by its `additionalProperties`; an object schema with neither
 *    keeps none; `x-kubernetes-preserve-unknown-fields` keeps them);
 * 2. defaulting (schema-defaulting.ts): a `null` the schema does not allow (`nullable`) is
 *    dropped, then `default`s fill the fields that are missing, where their parent is present;
 * 3. validation (schema-validation.ts, schema-keywords.ts): `type`, `nullable`, `required`,
 *    `enum`, `minimum`/`maximum` with `exclusiveMinimum`/`exclusiveMaximum`,
 *    `minLength`/`maxLength` (in characters), `pattern` (Go's RE2 syntax, go-regexp.ts),
 *    `minItems`/`maxItems`, with the reasons and messages a cluster answers.
 *
 * Not checked: `format`, `multipleOf`, `uniqueItems`, `minProperties`/`maxProperties`,
 * `allOf`/`anyOf`/`oneOf`/`not`, CEL rules (`x-kubernetes-validations`), ratcheting (a cluster
 * lets an update keep a field that a newer schema refuses, as long as it does not change it),
 * nor the schema itself: a cluster refuses a CRD whose schema is not structural, or whose
 * defaults or patterns are invalid; here a keyword of the wrong JSON type is ignored, never
 * trusted, and a pattern RE2 would refuse is not checked.
 */
import { getOwn, isPlainObject } from "../object.ts";

export interface JsonSchema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  minimum?: number;
  maximum?: number;
  /** OpenAPI v3.0's: a boolean that makes `minimum` exclusive. */
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  nullable?: boolean;
  default?: unknown;
  additionalProperties?: JsonSchema;
  description?: string;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
}

/**
 * The root's fields every object has that no CRD schema need list: pruning keeps them, and
 * defaulting leaves them to the server (ObjectMeta is decoded on its own, resources/decode.ts).
 */
export const ROOT_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

/**
 * The schema of `key`'s value in an object of `schema`: its own property (a field named
 * "constructor" is not declared by Object.prototype's), else its additionalProperties.
 */
export function fieldSchema(schema: JsonSchema, key: string): JsonSchema | undefined {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const declared = getOwn(properties, key);
  if (isPlainObject(declared)) return declared as JsonSchema;
  return isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** The declared properties (name and schema) of an object schema. */
export function propertiesOf(schema: JsonSchema): [string, JsonSchema][] {
  if (!isPlainObject(schema.properties)) return [];
  return Object.entries(schema.properties).filter((entry): entry is [string, JsonSchema] =>
    isPlainObject(entry[1]),
  );
}

/** The schema of an array's items. */
export function itemsSchema(schema: JsonSchema): JsonSchema | undefined {
  return isPlainObject(schema.items) ? schema.items : undefined;
}

/** A keyword's value when it has the JSON type the schema language gives it. */
export function numberKeyword(
  schema: JsonSchema,
  key: "minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems",
): number | undefined {
  const v = schema[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
