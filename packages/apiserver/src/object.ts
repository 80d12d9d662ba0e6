/**
 * The JSON object model shared by the store, the registry and the HTTP layer. Objects are plain
 * JSON; stored snapshots are deep-frozen, so code that wants to change one clones it first.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  [key: string]: unknown;
}

export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A client's JSON keys are data, never property names with a meaning in JS: `__proto__`,
 * `constructor`, `prototype`, `toString` read and write own properties only. A plain `o[key]`
 * read finds Object.prototype's members, and `o[key] = v` with `__proto__` sets the object's
 * prototype (or, through a walked `__proto__`, writes onto Object.prototype for the whole
 * process). Every walker, merge and patch over client data goes through these three.
 */
export function getOwn(o: object, key: string | number): unknown {
  return Object.hasOwn(o, key) ? (o as Record<string | number, unknown>)[key] : undefined;
}

export function hasOwn(o: object, key: string | number): boolean {
  return Object.hasOwn(o, key);
}

/** Sets an own, enumerable data property, whatever the key's name (`__proto__` included). */
export function setOwn(o: object, key: string | number, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Freezes a value and everything inside it; stored snapshots are shared, never mutated. */
export function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const child of Object.values(v)) deepFreeze(child);
  }
  return v;
}

/** Structural equality of JSON values, ignoring object key order. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** Whole-second RFC 3339, the way metav1.Time serializes. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

const RFC3339_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/;

/** The metav1.MicroTime fields of the served kinds (Events, Leases); every other time is metav1.Time. */
const MICRO_TIME_KEYS = new Set(["eventTime", "lastObservedTime", "acquireTime", "renewTime"]);

/**
 * Times as the real server stores them. metav1.Time has whole-second precision: a client that
 * re-serializes a JS Date sends "…:06.000Z", which the real server decodes and stores as "…:06Z";
 * doing the same keeps such writes no-ops. metav1.MicroTime is written with exactly six decimals
 * ("…:06.123000Z"), the form Go clients parse it in (client-go's leader election reads a Lease's
 * renewTime so). Applies to keys named *Timestamp / *Time.
 */
export function normalizeTimes(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) normalizeTimes(x);
    return;
  }
  if (!isPlainObject(v)) return;
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "string" && /(Timestamp|Time)$/.test(k)) {
      const m = RFC3339_UTC.exec(x);
      if (!m) continue;
      v[k] = MICRO_TIME_KEYS.has(k)
        ? `${m[1]}.${(m[2] ?? "").padEnd(6, "0").slice(0, 6)}Z`
        : `${m[1]}Z`;
    } else {
      normalizeTimes(x);
    }
  }
}
