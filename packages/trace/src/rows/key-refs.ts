/**
 * A row's detail may name its key instead of spelling it: a watch event's object (`name`, `ns`)
 * and a write's `target` mostly hold the row's own key or a part of it ("deployments/" + key),
 * and a detail that spelled them was one detail per Foo — at 60k Foos, hundreds of thousands of
 * detail texts to build, intern, ship to the page and parse, where a few dozen shared ones say the
 * same.
 *
 * Invariants:
 * - A reference is a member value `{"ref":PART,"before":B,"after":A}`: the value is B, then the
 *   row's key (PART "key") or the part of it before its first "/" ("ns") or after it ("name"),
 *   then A. The fields that may hold one are strings by the field table, so an object there is
 *   always a reference, never a value.
 * - Every encoder decides alike (`keyRefOf`): the key anywhere in the value first; else the
 *   value equal to a non-empty part. Resolving gives back exactly the value.
 */
import type { FieldName } from "../event-fields.ts";

/** The fields whose value may name the row's key. */
export const KEY_REF_FIELDS = ["name", "ns", "target"] as const satisfies readonly FieldName[];

export type KeyPart = "key" | "ns" | "name";

export interface KeyRef {
  ref: KeyPart;
  before: string;
  after: string;
}

/** `keyRefOf`'s answer when the value names no part of its key. */
export const NO_REF = -1;
/** `keyRefOf`'s answers for a value that is exactly one part of the key. */
export const NS_REF = -2;
export const NAME_REF = -3;

/**
 * How `value` names `key`: where the key begins in it (≥ 0), NS_REF or NAME_REF for a value
 * equal to that part, or NO_REF. Allocates nothing: a row reader asks it for every line.
 */
export function keyRefOf(value: string, key: string): number {
  if (key === "") return NO_REF;
  const at = value.indexOf(key);
  if (at >= 0) return at;
  const slash = key.indexOf("/");
  if (slash <= 0) return NO_REF;
  if (value.length === slash && key.startsWith(value)) return NS_REF;
  if (value.length === key.length - slash - 1 && value.length > 0 && key.endsWith(value)) {
    return NAME_REF;
  }
  return NO_REF;
}

/** The reference for `value` on a row of `key`, or undefined when it names no part of the key. */
export function keyRef(value: string, key: string): KeyRef | undefined {
  const at = keyRefOf(value, key);
  if (at === NO_REF) return undefined;
  if (at === NS_REF) return { ref: "ns", before: "", after: "" };
  if (at === NAME_REF) return { ref: "name", before: "", after: "" };
  return { ref: "key", before: value.slice(0, at), after: value.slice(at + key.length) };
}

export function isKeyRef(v: unknown): v is KeyRef {
  return typeof v === "object" && v !== null && typeof (v as KeyRef).ref === "string";
}

/** The value `ref` stands for on a row of `key`. */
export function resolveKeyRef(ref: KeyRef, key: string): string {
  return ref.before + keyPart(key, ref.ref) + ref.after;
}

/** The key, or its part before (ns) or after (name) its first "/". */
export function keyPart(key: string, part: KeyPart): string {
  if (part === "key") return key;
  const slash = key.indexOf("/");
  return part === "ns" ? key.slice(0, slash) : key.slice(slash + 1);
}

/** `members` with each reference resolved against `key` (the same object when it has none). */
export function resolveKeyRefs(
  members: Readonly<Record<string, unknown>>,
  key: string,
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | undefined;
  for (const f of KEY_REF_FIELDS) {
    const v = members[f];
    if (isKeyRef(v)) (out ??= { ...members })[f] = resolveKeyRef(v, key);
  }
  return out ?? members;
}
