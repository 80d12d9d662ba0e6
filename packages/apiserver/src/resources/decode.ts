/**
 * What decoding a request body into an object checks before any strategy sees it, as the real
 * server's JSON decoding (Go structs for ObjectMeta and built-in types, the unstructured scheme
 * for custom resources) does: a wrong JSON type is a 400 BadRequest whose message names the Go
 * field and type, never a value stored coerced; a custom resource needs its `kind` (built-in
 * types take theirs from the URL); nesting has a limit. Messages follow apiserver's
 * transformDecodeError: `<Kind> in version "<v>" cannot be handled as a <Kind>: <decode error>`.
 */
import { badRequest, type ApiError } from "../errors.ts";
import { getOwn, isPlainObject, type KObject } from "../object.ts";
import { goTypeProblem } from "./go-json-types.ts";
import { DEPLOYMENT_SPEC_FIELDS } from "./pod-template-types.ts";
import type { ResourceDef } from "./resource.ts";

/**
 * Deepest nesting of objects and arrays a body (or a patched object) may have. The real server
 * allows 10,000 (Go's encoding/json); this one walks objects recursively in places (clone,
 * freeze, compare, merge), which a 2,000-deep object overflowed — a 500 for the whole request.
 * Kubernetes objects nest a few dozen levels.
 */
export const MAX_DEPTH = 1000;

/** Whether `v` nests objects/arrays more than `limit` deep; iterative, so any depth is safe. */
export function deeperThan(v: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(x) ? x : Object.values(x)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const TOO_DEEP = `exceeded max depth (${MAX_DEPTH} levels of nesting)`;

/** The 400 a body that does not decode as `def`'s kind gets. */
export function cannotHandle(def: ResourceDef, detail: string): ApiError {
  return badRequest(
    `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${detail}`,
  );
}

/** How Go's json names a JSON value's kind in "cannot unmarshal <kind> into …". */
function jsonKind(v: unknown, intoInteger = false): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return intoInteger && !Number.isInteger(v) ? `number ${v}` : "number";
  if (typeof v === "boolean") return "bool";
  return typeof v === "string" ? "string" : "object";
}

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === "string";
const isInt: Check = (v) => typeof v === "number" && Number.isSafeInteger(v);
const isBool: Check = (v) => typeof v === "boolean";

/**
 * A custom resource's body must name its kind (the unstructured scheme has nothing else to go
 * by): `Object 'Kind' is missing in '<body>'`, as a real server answers a CR POST or PUT without
 * one. Built-in types are decoded into the URL's type and default both fields.
 */
export function requireKind(def: ResourceDef, obj: Record<string, unknown>): void {
  if (def.builtIn || (typeof obj.kind === "string" && obj.kind !== "")) return;
  const body = JSON.stringify(obj);
  const summary = body.length > 30 ? `${body.slice(0, 30)} ...` : body;
  throw badRequest(
    `the object provided is unrecognized (must be of type ${def.kind}): Object 'Kind' is missing in '${body}' (${summary})`,
  );
}

/**
 * The first field of `obj` whose JSON type the Go struct cannot take (metadata, and a built-in
 * type's spec and status), in Go's words; `null` fields are dropped as Go leaves them zero.
 * Undefined when everything decodes.
 */
export function decodeProblem(def: ResourceDef, obj: KObject): string | undefined {
  // Go names the field by its path from the struct being decoded: the whole object for built-in
  // types, ObjectMeta alone for a custom resource (apiextensions decodes it by itself).
  const at = def.builtIn ? "metadata." : "";
  const meta: Record<string, unknown> = obj.metadata;
  const wrong = (field: string, v: unknown, type: string, struct = "ObjectMeta", int = false) =>
    `json: cannot unmarshal ${jsonKind(v, int)} into Go struct field ${struct}.${at}${field} of type ${type}`;
  for (const key of Object.keys(meta)) if (meta[key] === null) delete meta[key];

  for (const f of ["name", "generateName", "namespace", "uid", "resourceVersion", "selfLink"]) {
    const v = getOwn(meta, f);
    if (v !== undefined && !isString(v)) return wrong(f, v, "string");
  }
  for (const f of ["generation", "deletionGracePeriodSeconds"]) {
    const v = getOwn(meta, f);
    if (v !== undefined && !isInt(v)) return wrong(f, v, "int64", "ObjectMeta", true);
  }
  for (const f of ["creationTimestamp", "deletionTimestamp"]) {
    const v = getOwn(meta, f);
    // metav1.Time decodes a string first, then parses it as RFC 3339.
    if (v !== undefined && !isString(v))
      return `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`;
    if (typeof v === "string" && Number.isNaN(Date.parse(v)))
      return `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`;
  }
  for (const f of ["labels", "annotations"]) {
    const v = getOwn(meta, f);
    if (v === undefined) continue;
    if (!isPlainObject(v)) return wrong(f, v, "map[string]string");
    for (const x of Object.values(v)) if (!isString(x)) return wrong(f, x, "string");
  }
  const finalizers = getOwn(meta, "finalizers");
  if (finalizers !== undefined) {
    if (!Array.isArray(finalizers)) return wrong("finalizers", finalizers, "[]string");
    for (const x of finalizers) if (!isString(x)) return wrong("finalizers", x, "string");
  }
  const refs = getOwn(meta, "ownerReferences");
  if (refs !== undefined) {
    if (!Array.isArray(refs)) return wrong("ownerReferences", refs, "[]v1.OwnerReference");
    for (const ref of refs) {
      if (!isPlainObject(ref)) return wrong("ownerReferences", ref, "v1.OwnerReference");
      for (const f of ["apiVersion", "kind", "name", "uid"]) {
        const v = getOwn(ref, f);
        if (v !== undefined && v !== null && !isString(v))
          return wrong(`ownerReferences.${f}`, v, "string", "OwnerReference");
      }
      for (const f of ["controller", "blockOwnerDeletion"]) {
        const v = getOwn(ref, f);
        if (v !== undefined && v !== null && !isBool(v))
          return wrong(`ownerReferences.${f}`, v, "bool", "OwnerReference");
      }
    }
  }
  const managed = getOwn(meta, "managedFields");
  if (managed !== undefined && (!Array.isArray(managed) || !managed.every(isPlainObject)))
    return wrong("managedFields", managed, "[]v1.ManagedFieldsEntry");

  if (def.builtIn && def.kind !== "Event") {
    for (const f of ["spec", "status"]) {
      const v = getOwn(obj, f);
      if (v !== undefined && v !== null && !isPlainObject(v))
        return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ${def.kind}.${f} of type v1.${def.kind}${f === "spec" ? "Spec" : "Status"}`;
    }
    const spec = getOwn(obj, "spec");
    for (const f of INT32_SPEC_FIELDS[def.kind] ?? []) {
      const v = isPlainObject(spec) ? getOwn(spec, f) : undefined;
      if (v !== undefined && v !== null && !isInt32(v))
        return `json: cannot unmarshal ${jsonKind(v, true)}${typeof v === "number" && Number.isInteger(v) ? ` ${v}` : ""} into Go struct field ${def.kind}Spec.spec.${f} of type int32`;
    }
    const strategy = isPlainObject(spec) ? getOwn(spec, "strategy") : undefined;
    const rollingUpdate = isPlainObject(strategy) ? getOwn(strategy, "rollingUpdate") : undefined;
    for (const f of def.kind === "Deployment" ? ["maxUnavailable", "maxSurge"] : []) {
      const v = isPlainObject(rollingUpdate) ? getOwn(rollingUpdate, f) : undefined;
      if (v !== undefined && v !== null && typeof v !== "string" && !isInt32(v))
        return intOrStringProblem(v);
    }
    if (def.kind === "Deployment") {
      const why = goTypeProblem(spec, DEPLOYMENT_SPEC_FIELDS, "spec", "Deployment");
      if (why) return why;
    }
  }
  return undefined;
}

/**
 * A built-in spec's int32 fields: Go's decoder refuses a number that is no int32 (5000000000,
 * 1.5) before validation. The simulated cluster makes a pod per replica: 2^64 of them (a -1 that
 * overflowed) ran away.
 */
const INT32_SPEC_FIELDS: Record<string, readonly string[]> = {
  Deployment: ["replicas", "minReadySeconds", "revisionHistoryLimit", "progressDeadlineSeconds"],
};
const isInt32: Check = (v) =>
  typeof v === "number" && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31;

/**
 * IntOrString's UnmarshalJSON takes a string as is and decodes anything else into its int32,
 * returning that error unwrapped: no field name, as the real 400 for `maxSurge: 1.5` reads.
 */
function intOrStringProblem(v: unknown): string {
  const number = typeof v === "number" ? (Number.isInteger(v) ? ` ${v}` : "") : "";
  return `json: cannot unmarshal ${jsonKind(v, true)}${number} into Go value of type int32`;
}

/** `metadata` itself must be an object (absent or null: empty). */
export function metadataProblem(def: ResourceDef, metadata: unknown): string | undefined {
  if (metadata === undefined || metadata === null || isPlainObject(metadata)) return undefined;
  return def.builtIn
    ? `json: cannot unmarshal ${jsonKind(metadata)} into Go struct field ${def.kind}.metadata of type v1.ObjectMeta`
    : `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
}
