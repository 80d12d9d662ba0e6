/**
 * Go's encoding/json type errors, driven by a table of a struct's fields and their Go types
 * rather than code per field: a built-in type's body is decoded into Go structs, and a JSON
 * value of the wrong type is refused before anything stores it (kubectl, decoding it again,
 * fails on every later read). The message is Go's UnmarshalTypeError: the innermost struct's
 * name, the field's path from the decoded object (array indices and map keys are not part of
 * it), and the Go type.
 */
import { isPlainObject } from "../object.ts";

export type GoType =
  | { kind: "string" | "bool" | "int32" | "int64"; name: string }
  | { kind: "struct"; name: string; fields: Readonly<Record<string, GoType>> }
  | { kind: "slice"; elem: GoType }
  | { kind: "map"; name?: string; elem: GoType }
  | { kind: "any" };

/** A string field; `name` for a named string type (`v1.RestartPolicy`), as Go prints it. */
export const goString = (name = "string"): GoType => ({ kind: "string", name });
export const goBool: GoType = { kind: "bool", name: "bool" };
export const goInt32: GoType = { kind: "int32", name: "int32" };
export const goInt64: GoType = { kind: "int64", name: "int64" };
export const goAny: GoType = { kind: "any" };
export const goSlice = (elem: GoType): GoType => ({ kind: "slice", elem });
export const goMap = (elem: GoType, name?: string): GoType => ({ kind: "map", elem, name });
/** A struct (`v1.<name>`); fields not listed are left to the unknown-field handling. */
export const goStruct = (name: string, fields: Record<string, GoType> = {}): GoType => ({
  kind: "struct",
  name,
  fields,
});

function typeName(t: GoType): string {
  switch (t.kind) {
    case "struct":
      return `v1.${t.name}`;
    case "slice":
      return `[]${typeName(t.elem)}`;
    case "map":
      return t.name ?? `map[string]${typeName(t.elem)}`;
    case "any":
      return "interface {}";
    default:
      return t.name;
  }
}

/** How Go names the JSON value: a number that no integer type takes is quoted as written. */
function valueKind(v: unknown, integer: boolean): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return integer ? `number ${v}` : "number";
  if (typeof v === "boolean") return "bool";
  return typeof v === "string" ? "string" : "object";
}

const INT_RANGE = { int32: 2 ** 31, int64: 2 ** 63 } as const;

function fits(v: unknown, t: GoType): boolean {
  switch (t.kind) {
    case "string":
      return typeof v === "string";
    case "bool":
      return typeof v === "boolean";
    case "int32":
    case "int64":
      return (
        typeof v === "number" &&
        Number.isInteger(v) &&
        v >= -INT_RANGE[t.kind] &&
        v < INT_RANGE[t.kind]
      );
    case "slice":
      return Array.isArray(v);
    case "struct":
    case "map":
      return isPlainObject(v);
    case "any":
      return true;
  }
}

/**
 * The first value in `v` (at `path`, a field of Go struct `struct`) that type `t` cannot take,
 * in Go's words; undefined when it decodes. `null` decodes anywhere (Go leaves the zero value).
 */
export function goTypeProblem(
  v: unknown,
  t: GoType,
  path: string,
  struct: string,
): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (!fits(v, t)) {
    const integer = t.kind === "int32" || t.kind === "int64";
    return `json: cannot unmarshal ${valueKind(v, integer && typeof v === "number")} into Go struct field ${struct}.${path} of type ${typeName(t)}`;
  }
  if (t.kind === "slice") {
    for (const x of v as unknown[]) {
      const why = goTypeProblem(x, t.elem, path, struct);
      if (why) return why;
    }
  } else if (t.kind === "map") {
    for (const x of Object.values(v as object)) {
      const why = goTypeProblem(x, t.elem, path, struct);
      if (why) return why;
    }
  } else if (t.kind === "struct") {
    // In the body's order, as Go's decoder meets them; it reports the first.
    for (const [key, x] of Object.entries(v as object)) {
      const field = Object.hasOwn(t.fields, key) ? t.fields[key] : undefined;
      const why = field && goTypeProblem(x, field, `${path}.${key}`, t.name);
      if (why) return why;
    }
  }
  return undefined;
}
