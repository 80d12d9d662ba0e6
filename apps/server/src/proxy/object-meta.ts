/**
 * Reads the few fields the tracer needs out of a decoded JSON object (a watch event's object, a
 * list item, a write's response). Anything missing or of the wrong type is left out, never guessed.
 */
import type { ObjectMeta, OwnerRef } from "./wire.ts";

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const obj = (v: unknown): Json | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

/** "apps/v1" → "apps", "v1" → "". */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/**
 * The object's meta; `kind`/`apiVersion` default to the given ones (list items of built-in
 * kinds carry none). Undefined when it has no kind or name to go by.
 */
export function objectMeta(
  value: unknown,
  fallback?: { kind: string; apiVersion: string },
): ObjectMeta | undefined {
  const o = obj(value);
  const meta = obj(o?.metadata);
  if (!o || !meta) return undefined;
  const kind = str(o.kind) ?? fallback?.kind;
  const apiVersion = str(o.apiVersion) ?? fallback?.apiVersion;
  const name = str(meta.name);
  if (!kind || apiVersion === undefined || !name) return undefined;
  const m: ObjectMeta = { group: groupOf(apiVersion), kind, name };
  const ns = str(meta.namespace);
  if (ns) m.namespace = ns;
  const uid = str(meta.uid);
  if (uid) m.uid = uid;
  const rv = str(meta.resourceVersion);
  if (rv) m.rv = rv;
  const owner = controllerRef(meta.ownerReferences);
  if (owner) m.owner = owner;
  return m;
}

function controllerRef(refs: unknown): OwnerRef | undefined {
  if (!Array.isArray(refs)) return undefined;
  for (const r of refs) {
    const ref = obj(r);
    if (!ref || ref.controller !== true) continue;
    const kind = str(ref.kind);
    const name = str(ref.name);
    const apiVersion = str(ref.apiVersion);
    if (!kind || !name || apiVersion === undefined) continue;
    const out: OwnerRef = { group: groupOf(apiVersion), kind, name };
    const uid = str(ref.uid);
    if (uid) out.uid = uid;
    return out;
  }
  return undefined;
}

/** A list response's items with their kind ("FooList" → "Foo"); undefined if it is no list. */
export function listItems(value: unknown): ObjectMeta[] | undefined {
  const o = obj(value);
  const kind = str(o?.kind);
  const apiVersion = str(o?.apiVersion);
  if (!o || !kind?.endsWith("List") || apiVersion === undefined || !Array.isArray(o.items))
    return undefined;
  const fallback = { kind: kind.slice(0, -"List".length), apiVersion };
  const out: ObjectMeta[] = [];
  for (const item of o.items) {
    const m = objectMeta(item, fallback);
    if (m) out.push(m);
  }
  return out;
}

/** A Kubernetes Status's reason ("Conflict", "NotFound"), when the value is one. */
export function statusReason(value: unknown): string | undefined {
  const o = obj(value);
  return o?.kind === "Status" ? str(o.reason) : undefined;
}

/** Whether the value is a Kubernetes Status (what a failed request, and some deletes, return). */
export function isStatus(value: unknown): boolean {
  return obj(value)?.kind === "Status";
}
