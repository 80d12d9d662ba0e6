/**
 * Validation of a pruned and defaulted custom resource by its schema, as kube-openapi's
 * SchemaValidator walks it for apiextensions: at each value its type (`nullable` lets a null
 * through), then the keywords that apply to what the value is (schema-keywords.ts), its `enum`,
 * and an object's `required` fields and declared values (fields without a schema were pruned).
 * Errors come in kube-openapi's order for one value: type, string, number, array, enum, object.
 */
import type { FieldError } from "../errors.ts";
import { deepEqual, isPlainObject } from "../object.ts";
import { goQuote, goValue } from "./go-print.ts";
import { arrayErrors, numberErrors, stringError } from "./schema-keywords.ts";
import { fieldSchema, itemsSchema, joinPath, type JsonSchema } from "./schema.ts";

export function validateBySchema(obj: Record<string, unknown>, schema: JsonSchema): FieldError[] {
  const errors: FieldError[] = [];
  validate(obj, schema, "", errors);
  return errors;
}

function validate(value: unknown, schema: JsonSchema, path: string, out: FieldError[]): void {
  const typeError = checkType(value, schema, path);
  if (typeError) out.push(typeError);
  if (typeof value === "string") {
    const error = stringError(value, schema, path);
    if (error) out.push(error);
  }
  if (typeof value === "number") out.push(...numberErrors(value, schema, path));
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    if (items) value.forEach((item, i) => validate(item, items, `${path}[${i}]`, out));
    out.push(...arrayErrors(value, schema, path));
  }
  const enumError = checkEnum(value, schema, path);
  if (enumError) out.push(enumError);
  if (isPlainObject(value)) validateObject(value, schema, path, out);
}

function validateObject(
  obj: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
  out: FieldError[],
): void {
  for (const req of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof req === "string" && !Object.hasOwn(obj, req)) {
      out.push({
        reason: "FieldValueRequired",
        field: joinPath(path, req),
        detail: "Required value",
      });
    }
  }
  for (const [key, value] of Object.entries(obj)) {
    const child = fieldSchema(schema, key);
    if (child) validate(value, child, joinPath(path, key), out);
  }
}

function checkType(value: unknown, schema: JsonSchema, path: string): FieldError | undefined {
  const ok =
    schema.type === undefined ||
    (value === null && schema.nullable === true) ||
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

/**
 * FieldValueNotSupported, `Unsupported value: <value>: supported values: "a", "b"`: each allowed
 * value a quoted string, a string as it is and anything else as its JSON (field.NotSupported).
 * A null matches no entry, as in kube-openapi.
 */
function checkEnum(value: unknown, schema: JsonSchema, path: string): FieldError | undefined {
  if (!Array.isArray(schema.enum) || schema.enum.length === 0) return undefined;
  if (value !== null && schema.enum.some((e) => deepEqual(e, value))) return undefined;
  const supported = schema.enum.map((e) => goQuote(typeof e === "string" ? e : JSON.stringify(e)));
  return {
    reason: "FieldValueNotSupported",
    field: path,
    detail: `Unsupported value: ${goValue(value)}: supported values: ${supported.join(", ")}`,
  };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
