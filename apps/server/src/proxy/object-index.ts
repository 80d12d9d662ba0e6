/**
 * The proxy's own small cache of the objects that passed through it: their resourceVersion and
 * controller owner, found by uid or by name. The controller's informer caches are out of the
 * proxy's sight; this is what it rebuilds from the same traffic (watch events, lists, write
 * responses) — it never asks the API server itself.
 *
 * Invariants: bounded (the oldest entries go first past `capacity`); an object deleted on the
 * wire leaves it and its uid is remembered as gone (bounded too), so a dependent of a deleted
 * owner resolves to no owner, as the controller's lister would.
 */
import type { ObjectMeta } from "./wire.ts";

export class ObjectIndex {
  private readonly byUid = new Map<string, ObjectMeta>();
  private readonly byName = new Map<string, ObjectMeta>();
  private readonly gone = new Set<string>();
  /** "group/resource" → kind, learned from responses: a write's target names only the resource. */
  private readonly kinds = new Map<string, string>();

  constructor(private readonly capacity = 200_000) {}

  get(m: {
    group: string;
    kind: string;
    namespace?: string;
    name: string;
    uid?: string;
  }): ObjectMeta | undefined {
    return (m.uid !== undefined ? this.byUid.get(m.uid) : undefined) ?? this.byName.get(nameKey(m));
  }

  byUidOf(uid: string): ObjectMeta | undefined {
    return this.byUid.get(uid);
  }

  isGone(uid: string): boolean {
    return this.gone.has(uid);
  }

  put(m: ObjectMeta): void {
    const k = nameKey(m);
    // Re-inserted at the end: the most recently seen objects are the last to be evicted.
    this.byName.delete(k);
    this.byName.set(k, m);
    if (m.uid !== undefined) {
      this.byUid.delete(m.uid);
      this.byUid.set(m.uid, m);
      this.gone.delete(m.uid);
    }
    if (this.byName.size > this.capacity) this.evictOldest();
  }

  remove(m: ObjectMeta): void {
    const old = this.get(m);
    this.byName.delete(nameKey(m));
    const uid = m.uid ?? old?.uid;
    if (uid === undefined) return;
    this.byUid.delete(uid);
    this.gone.add(uid);
    if (this.gone.size > this.capacity) this.gone.delete(this.gone.values().next().value!);
  }

  /** The name key of `m` (what Waiting.object holds). */
  nameKeyOf(m: { group: string; kind: string; namespace?: string; name: string }): string {
    return nameKey(m);
  }

  learnKind(group: string, resource: string, kind: string): void {
    this.kinds.set(`${group}/${resource}`, kind);
  }

  kindOf(group: string, resource: string): string | undefined {
    return this.kinds.get(`${group}/${resource}`);
  }

  private evictOldest(): void {
    const [k, m] = this.byName.entries().next().value!;
    this.byName.delete(k);
    if (m.uid !== undefined && this.byUid.get(m.uid) === m) this.byUid.delete(m.uid);
  }
}

function nameKey(m: { group: string; kind: string; namespace?: string; name: string }): string {
  return `${m.group}/${m.kind}/${m.namespace ?? ""}/${m.name}`;
}
