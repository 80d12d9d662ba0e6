/**
 * A PATCH body decoded as the real patch handler decodes it (apiserver's endpoints/handlers/
 * patch.go) before applying anything: with field validation (Warn, the default, or Strict) a JSON
 * patch must decode into `[]handlers.jsonPatchOp` and a merge patch into a map, each failure a 400
 * `error decoding patch: <Go's json error>`; a strategic merge patch must decode into a map, its
 * 400 the bare Go error. Go's words, not JavaScript's JSON.parse message.
 */
import { badRequest } from "../errors.ts";
import { isPlainObject } from "../object.ts";
import { MAX_DEPTH, TOO_DEEP, deeperThan } from "../resources/decode.ts";
import { goJsonSyntaxError } from "./go-json-syntax.ts";
import type { PatchType } from "./apply-patch.ts";

/** How Go's json names a JSON value's kind in "cannot unmarshal <kind> into …". */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (v === null) return "null";
  if (typeof v === "boolean") return "bool";
  return typeof v === "object" ? "object" : typeof v;
}

const MAP = "map[string]interface {}";
const OP_FIELDS = ["op", "path", "from"];

/** The Go decode error of `patch` as `type`'s Go value, if any. */
function typeProblem(type: PatchType, patch: unknown): string | undefined {
  if (patch === null) return undefined; // Go leaves the value empty
  if (type !== "json")
    return isPlainObject(patch)
      ? undefined
      : `json: cannot unmarshal ${jsonKind(patch)} into Go value of type ${MAP}`;
  if (!Array.isArray(patch))
    return `json: cannot unmarshal ${jsonKind(patch)} into Go value of type []handlers.jsonPatchOp`;
  for (const op of patch) {
    if (op === null) continue;
    if (!isPlainObject(op))
      return `json: cannot unmarshal ${jsonKind(op)} into Go value of type handlers.jsonPatchOp`;
    for (const f of OP_FIELDS) {
      const v = op[f];
      if (v !== undefined && v !== null && typeof v !== "string")
        return `json: cannot unmarshal ${jsonKind(v)} into Go struct field jsonPatchOp.${f} of type string`;
    }
  }
  return undefined;
}

export function decodePatchBody(type: PatchType, body: Buffer): unknown {
  const text = body.toString("utf8");
  const prefix = type === "strategic" ? "" : "error decoding patch: ";
  let patch: unknown;
  try {
    patch = JSON.parse(text) as unknown;
  } catch {
    // Only malformed text is scanned again for Go's words (the scanner recurses).
    throw badRequest(`${prefix}${goJsonSyntaxError(text) ?? TOO_DEEP}`);
  }
  if (deeperThan(patch, MAX_DEPTH)) throw badRequest(`${prefix}${TOO_DEEP}`);
  const why = typeProblem(type, patch);
  if (why) throw badRequest(`${prefix}${why}`);
  return patch;
}
