/**
 * Strategic merge patch for the built-in types served here (Deployments, Namespaces, Events).
 * Lists with a patch merge key merge item by item; `finalizers` merges as a set; other lists are
 * replaced. Directives: `$patch: replace|delete|merge`, `$retainKeys`, `$setElementOrder/<list>`,
 * `$deleteFromPrimitiveList/<list>`. The merge keys are those of k8s.io/api's struct tags for the
 * fields these types contain, keyed by field name (no served type reuses a name with another key).
 * Keys are own data properties, whatever their names (object.ts getOwn/setOwn): a field called
 * `__proto__` or `constructor` merges like any other.
 */
import { ApiError } from "../errors.ts";
import { clone, getOwn, isPlainObject, setOwn } from "../object.ts";

const MERGE_KEYS = new Map<string, string>([
  ["containers", "name"],
  ["initContainers", "name"],
  ["ephemeralContainers", "name"],
  ["volumes", "name"],
  ["env", "name"],
  ["imagePullSecrets", "name"],
  ["resourceClaims", "name"],
  ["ports", "containerPort"],
  ["volumeMounts", "mountPath"],
  ["volumeDevices", "devicePath"],
  ["conditions", "type"],
  ["ownerReferences", "uid"],
  ["hostAliases", "ip"],
  ["topologySpreadConstraints", "topologyKey"],
]);

/** Lists of scalars whose patch strategy is "merge" (set union) rather than replace. */
const MERGED_PRIMITIVE_LISTS = new Set(["finalizers"]);

const SET_ORDER = "$setElementOrder/";
const DELETE_FROM = "$deleteFromPrimitiveList/";

function fail(detail: string): never {
  throw new ApiError(
    422,
    "Invalid",
    `the server rejected our request due to an error in our request: ${detail}`,
  );
}

export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) fail("a strategic merge patch must be a JSON object");
  const result = mergeMap(isPlainObject(target) ? target : {}, patch);
  return result ?? {};
}

/** Returns undefined when the patch deletes the whole map (`$patch: delete`). */
function mergeMap(
  original: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const directive = getOwn(patch, "$patch");
  if (directive === "delete") return undefined;
  const result: Record<string, unknown> = directive === "replace" ? {} : { ...original };
  const orders: [string, unknown[]][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === "$patch" || key === "$retainKeys") continue;
    if (key.startsWith(SET_ORDER)) {
      if (Array.isArray(value)) orders.push([key.slice(SET_ORDER.length), value]);
      continue;
    }
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      const list = getOwn(result, field);
      if (Array.isArray(list) && Array.isArray(value)) {
        setOwn(
          result,
          field,
          list.filter((x) => !value.includes(x)),
        );
      }
      continue;
    }
    if (value === null) {
      delete result[key];
    } else if (isPlainObject(value)) {
      const old = getOwn(result, key);
      const merged = mergeMap(isPlainObject(old) ? old : {}, value);
      if (merged === undefined) delete result[key];
      else setOwn(result, key, merged);
    } else if (Array.isArray(value)) {
      const old = getOwn(result, key);
      setOwn(result, key, mergeList(key, Array.isArray(old) ? old : [], value));
    } else {
      setOwn(result, key, value);
    }
  }
  for (const [field, order] of orders) {
    const list = getOwn(result, field);
    if (Array.isArray(list)) setOwn(result, field, reorder(field, list, order));
  }
  const retain = getOwn(patch, "$retainKeys");
  if (Array.isArray(retain)) {
    const keep = new Set(retain as unknown[]);
    for (const key of Object.keys(result)) if (!keep.has(key)) delete result[key];
  }
  return result;
}

/** A patch list item or new list, with directives resolved against nothing. */
function fresh(item: unknown): unknown {
  return isPlainObject(item) ? (mergeMap({}, item) ?? {}) : clone(item);
}

function mergeList(field: string, original: unknown[], patch: unknown[]): unknown[] {
  const mergeKey = MERGE_KEYS.get(field);
  if (mergeKey) {
    const replaces = (p: unknown) => isPlainObject(p) && getOwn(p, "$patch") === "replace";
    if (patch.some(replaces)) return patch.filter((p) => !replaces(p)).map(fresh);
    const result = original.map((x) => x);
    for (const item of patch) {
      if (!isPlainObject(item)) fail(`list ${field} must contain objects`);
      const key = getOwn(item, mergeKey);
      const at = result.findIndex((x) => isPlainObject(x) && getOwn(x, mergeKey) === key);
      if (getOwn(item, "$patch") === "delete") {
        if (at >= 0) result.splice(at, 1);
        continue;
      }
      if (at >= 0) result[at] = mergeMap(result[at] as Record<string, unknown>, item) ?? {};
      else result.push(fresh(item));
    }
    return result;
  }
  if (MERGED_PRIMITIVE_LISTS.has(field)) {
    const result = [...original];
    for (const v of patch) if (!result.includes(v)) result.push(v);
    return result;
  }
  return patch.map(fresh);
}

/** `$setElementOrder`: listed items first, in that order; the rest keep their relative order. */
function reorder(field: string, list: unknown[], order: unknown[]): unknown[] {
  const mergeKey = MERGE_KEYS.get(field);
  const identity = (x: unknown) => (mergeKey && isPlainObject(x) ? getOwn(x, mergeKey) : x);
  const wanted = order.map(identity);
  const listed = wanted.flatMap((w) => list.filter((x) => identity(x) === w));
  const rest = list.filter((x) => !wanted.includes(identity(x)));
  return [...listed, ...rest];
}
