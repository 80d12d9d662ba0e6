/**
 * The value keywords of a CRD schema — bounds of numbers, lengths and patterns of strings, item
 * counts of arrays — each judged as kube-openapi's validators judge them and answered as
 * apiextensions answers them (Kubernetes 1.32: apiextensions-apiserver v0.32.0
 * pkg/apiserver/validation/validation.go kubeOpenAPIResultToFieldErrors, over kube-openapi
 * 32ad38e42d3f pkg/validation/errors/schema.go and validate/values.go, apimachinery v0.32.0
 * pkg/util/validation/field/errors.go). kube-openapi's messages:
 *
 *   minIncFail   = "%s in %s should be greater than or equal to %v"
 *   minExcFail   = "%s in %s should be greater than %v"
 *   maxIncFail   = "%s in %s should be less than or equal to %v"
 *   maxExcFail   = "%s in %s should be less than %v"
 *   tooShortMessage = "%s in %s should be at least %d chars long"
 *   patternFail  = "%s in %s should match '%s'"
 *   minItemsFail = "%s in %s should have at least %d items"
 *
 * each a FieldValueInvalid, `<path>: Invalid value: <value>: <message>` (the value of minItems:
 * the count). A too long string is field.TooLong instead — FieldValueTooLong, `<path>: Too long:
 * may not be more than %d bytes` (its words; the length is counted in characters, as
 * utf8.RuneCount counts) — and too many items field.TooMany — FieldValueTooMany, `<path>: Too
 * many: <count>: must have at most %d items`. `in` is always "body".
 */
import type { FieldError } from "../errors.ts";
import { goNumber, goValue } from "./go-print.ts";
import { goRegExp } from "./go-regexp.ts";
import { numberKeyword, type JsonSchema } from "./schema.ts";

function invalid(path: string, value: unknown, message: string): FieldError {
  return {
    reason: "FieldValueInvalid",
    field: path,
    detail: `Invalid value: ${goValue(value)}: ${path} in body ${message}`,
  };
}

/** A length or count keyword: Go decodes it as an int64, so only a whole number counts. */
function countKeyword(
  schema: JsonSchema,
  key: "minLength" | "maxLength" | "minItems" | "maxItems",
): number | undefined {
  const n = numberKeyword(schema, key);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

/**
 * minimum / maximum, each made exclusive by OpenAPI v3.0's boolean exclusiveMinimum /
 * exclusiveMaximum. Against a whole number a bound is cut to a whole number first, as
 * kube-openapi's MinimumNativeType does (int64(min)).
 */
export function numberErrors(value: number, schema: JsonSchema, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const whole = Number.isSafeInteger(value);
  const bound = (b: number) => (whole ? Math.trunc(b) : b);
  const minimum = numberKeyword(schema, "minimum");
  if (minimum !== undefined) {
    const exclusive = schema.exclusiveMinimum === true;
    const min = bound(minimum);
    if (exclusive ? value <= min : value < min)
      errors.push(
        invalid(
          path,
          value,
          `should be greater than ${exclusive ? "" : "or equal to "}${goNumber(min)}`,
        ),
      );
  }
  const maximum = numberKeyword(schema, "maximum");
  if (maximum !== undefined) {
    const exclusive = schema.exclusiveMaximum === true;
    const max = bound(maximum);
    if (exclusive ? value >= max : value > max)
      errors.push(
        invalid(
          path,
          value,
          `should be less than ${exclusive ? "" : "or equal to "}${goNumber(max)}`,
        ),
      );
  }
  return errors;
}

/** maxLength, then minLength, then pattern: kube-openapi stops at the first a string fails. */
export function stringError(
  value: string,
  schema: JsonSchema,
  path: string,
): FieldError | undefined {
  const length = [...value].length;
  const maxLength = countKeyword(schema, "maxLength");
  if (maxLength !== undefined && length > maxLength) {
    return {
      reason: "FieldValueTooLong",
      field: path,
      detail: `Too long: may not be more than ${maxLength} bytes`,
    };
  }
  const minLength = countKeyword(schema, "minLength");
  if (minLength !== undefined && length < minLength)
    return invalid(path, value, `should be at least ${minLength} chars long`);
  const pattern = typeof schema.pattern === "string" ? schema.pattern : undefined;
  const re = pattern === undefined ? undefined : goRegExp(pattern);
  if (re && !re.test(value)) return invalid(path, value, `should match '${pattern}'`);
  return undefined;
}

/** minItems, then maxItems (after the items' own errors, as kube-openapi lists them). */
export function arrayErrors(value: unknown[], schema: JsonSchema, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const minItems = countKeyword(schema, "minItems");
  if (minItems !== undefined && value.length < minItems)
    errors.push(invalid(path, value.length, `should have at least ${minItems} items`));
  const maxItems = countKeyword(schema, "maxItems");
  if (maxItems !== undefined && value.length > maxItems) {
    errors.push({
      reason: "FieldValueTooMany",
      field: path,
      detail: `Too many: ${value.length}: must have at most ${maxItems} items`,
    });
  }
  return errors;
}
