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
 * - Every encoder decides alike (`keyRefOf`). Resolving gives back exactly the value.
 */
import type { FieldName } from "../event-fields.ts";
import { detach } from "../detach.ts";

/** The fields whose value may name the row's key. */
export const KEY_REF_FIELDS = [
  "name",
  "ns",
  "target",
  "error",
] as const satisfies readonly FieldName[];

export type KeyPart = "key" | "ns" | "name";

export interface KeyRef {
  ref: KeyPart;
  before: string;
  after: string;
}

/** The parts by their number in `keyRefOf`'s answer. */
export const KEY_PARTS: readonly KeyPart[] = ["key", "ns", "name"];
const KEY = 0;
const NS = 1;
const NAME = 2;

/** `keyRefOf`'s answer when the value names no part of its key. */
export const NO_REF = -1;

/**
 * How `value` names `key`: NO_REF, or `at * 4 + part` — the part (an index of KEY_PARTS) and
 * where in the value it begins. The whole key anywhere first; else, for a key with a namespace,
 * a value equal to its name or to its namespace, or its name in double quotes anywhere (as the
 * API server's errors name an object: `foos.samplecontroller.k8s.io "foo"`). Allocates nothing:
 * a row reader asks it for every line.
 */
export function keyRefOf(value: string, key: string): number {
  if (key === "") return NO_REF;
  const at = value.indexOf(key);
  if (at >= 0) return at * 4 + KEY;
  const slash = key.indexOf("/");
  if (slash <= 0 || slash === key.length - 1) return NO_REF;
  const n = key.length - slash - 1;
  if (value.length === n && key.endsWith(value)) return NAME;
  if (value.length === slash && key.startsWith(value)) return NS;
  for (
    let q = value.indexOf('"');
    q >= 0 && q + n + 1 < value.length;
    q = value.indexOf('"', q + 1)
  ) {
    if (value.charCodeAt(q + n + 1) !== QUOTE) continue;
    let i = 0;
    while (i < n && value.charCodeAt(q + 1 + i) === key.charCodeAt(slash + 1 + i)) i++;
    if (i === n) return (q + 1) * 4 + NAME;
  }
  return NO_REF;
}

const QUOTE = 0x22;

/** The reference for `value` on a row of `key`, or undefined when it names no part of the key. */
export function keyRef(value: string, key: string): KeyRef | undefined {
  const r = keyRefOf(value, key);
  if (r === NO_REF) return undefined;
  const at = r >> 2;
  const part = KEY_PARTS[r & 3];
  return {
    ref: part,
    before: value.slice(0, at),
    after: value.slice(at + keyPartLength(key, r & 3)),
  };
}

/**
 * The references met so far, numbered: `code(value, key)` is the number of the reference `value`
 * makes on a row of `key`, or -1 for none — equal numbers, equal references. Allocates nothing for
 * a reference met before: a row reader asks for every line, and a log's are a handful.
 */
export class KeyRefCodes {
  private readonly parts: number[] = [];
  private readonly befores: string[] = [];
  private readonly afters: string[] = [];

  code(value: string, key: string): number {
    const r = keyRefOf(value, key);
    if (r === NO_REF) return -1;
    const part = r & 3;
    const at = r >> 2;
    const tail = value.length - at - keyPartLength(key, part);
    for (let i = 0; i < this.parts.length; i++) {
      const before = this.befores[i];
      const after = this.afters[i];
      if (
        this.parts[i] === part &&
        before.length === at &&
        after.length === tail &&
        value.startsWith(before) &&
        value.endsWith(after)
      ) {
        return i;
      }
    }
    this.parts.push(part);
    this.befores.push(detach(value.slice(0, at)));
    this.afters.push(detach(value.slice(value.length - tail)));
    return this.parts.length - 1;
  }
}

export function isKeyRef(v: unknown): v is KeyRef {
  return typeof v === "object" && v !== null && typeof (v as KeyRef).ref === "string";
}

/** The value `ref` stands for on a row of `key`. */
export function resolveKeyRef(ref: KeyRef, key: string): string {
  return ref.before + keyPart(key, ref.ref) + ref.after;
}

/** The length of keyPart(key, KEY_PARTS[part]), without making it. */
export function keyPartLength(key: string, part: number): number {
  if (part === KEY) return key.length;
  const slash = key.indexOf("/");
  return part === NS ? slash : key.length - slash - 1;
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
