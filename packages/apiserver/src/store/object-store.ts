/**
 * The versioned in-memory object store, the embedded stand-in for etcd.
 *
 * Invariants:
 * - one global resourceVersion counter, bumped by every write (create, update, delete); each
 *   stored object carries the counter value of its last write, so RVs are unique and increase
 *   across all resources in write order;
 * - listeners see every change synchronously, in RV order, exactly once;
 * - stored snapshots are deep-frozen: readers share them, writers replace them.
 */
import type { ResourceDef } from "../resources/resource.ts";
import { deepFreeze, objectKey, type KObject } from "../object.ts";

export type ChangeType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreChange {
  type: ChangeType;
  resource: ResourceDef;
  /** The object after the change (for DELETED: its last state, carrying the delete's RV). */
  object: KObject;
  /** The object before the change (absent for ADDED). */
  previous?: KObject;
  rv: number;
}

export type ChangeListener = (change: StoreChange) => void;

export class ObjectStore {
  #rv: number;
  readonly #tables = new Map<ResourceDef, Map<string, KObject>>();
  readonly #byUid = new Map<string, { resource: ResourceDef; key: string }>();
  /**
   * Owner uid → uids of the objects whose ownerReferences name it: the garbage collector asks on
   * every delete, and a scan of every stored object (each pod's Events too) froze the server for
   * seconds when a Deployment of 500 replicas went.
   */
  readonly #byOwner = new Map<string, Set<string>>();
  readonly #listeners = new Set<ChangeListener>();

  /** Starts the counter at `initialRv` so RVs never look like a fresh etcd's small numbers. */
  constructor(initialRv: number) {
    this.#rv = initialRv;
  }

  get currentRv(): number {
    return this.#rv;
  }

  #table(def: ResourceDef): Map<string, KObject> {
    let t = this.#tables.get(def);
    if (!t) this.#tables.set(def, (t = new Map()));
    return t;
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KObject | undefined {
    return this.#table(def).get(objectKey(def.namespaced ? namespace : undefined, name));
  }

  getByUid(uid: string): { resource: ResourceDef; object: KObject } | undefined {
    const ref = this.#byUid.get(uid);
    const object = ref && this.#table(ref.resource).get(ref.key);
    return ref && object ? { resource: ref.resource, object } : undefined;
  }

  /** The objects whose ownerReferences name `ownerUid`, whatever their type. */
  dependentsOf(ownerUid: string): { resource: ResourceDef; object: KObject }[] {
    const out: { resource: ResourceDef; object: KObject }[] = [];
    for (const uid of this.#byOwner.get(ownerUid) ?? []) {
      const found = this.getByUid(uid);
      if (found) out.push(found);
    }
    return out;
  }

  /** Objects of a type (optionally one namespace), sorted by namespace/name like etcd keys. */
  list(def: ResourceDef, namespace?: string): KObject[] {
    const items: KObject[] = [];
    for (const obj of this.#table(def).values()) {
      if (!namespace || obj.metadata.namespace === namespace) items.push(obj);
    }
    return items.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  }

  /** Stores `obj` (taking ownership of it) with a new RV and notifies listeners. */
  write(def: ResourceDef, obj: KObject): KObject {
    const key = keyOf(obj);
    const table = this.#table(def);
    const previous = table.get(key);
    obj.metadata.resourceVersion = String(++this.#rv);
    deepFreeze(obj);
    table.set(key, obj);
    if (obj.metadata.uid) this.#byUid.set(obj.metadata.uid, { resource: def, key });
    this.#indexOwners(previous, obj);
    this.#emit({
      type: previous ? "MODIFIED" : "ADDED",
      resource: def,
      object: obj,
      previous,
      rv: this.#rv,
    });
    return obj;
  }

  /** Removes an object; the DELETED event carries its last state with a new RV. */
  delete(def: ResourceDef, namespace: string | undefined, name: string): KObject | undefined {
    const key = objectKey(def.namespaced ? namespace : undefined, name);
    const table = this.#table(def);
    const previous = table.get(key);
    if (!previous) return undefined;
    table.delete(key);
    if (previous.metadata.uid) this.#byUid.delete(previous.metadata.uid);
    this.#indexOwners(previous, undefined);
    const last = structuredClone(previous) as KObject;
    last.metadata.resourceVersion = String(++this.#rv);
    deepFreeze(last);
    this.#emit({ type: "DELETED", resource: def, object: last, previous, rv: this.#rv });
    return last;
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Moves `before`'s entries in #byOwner to `after`'s (either may be absent). */
  #indexOwners(before: KObject | undefined, after: KObject | undefined): void {
    const had = before?.metadata.ownerReferences;
    const has = after?.metadata.ownerReferences;
    if (!had?.length && !has?.length) return;
    for (const ref of had ?? []) {
      const deps = this.#byOwner.get(ref.uid);
      if (!deps || !before?.metadata.uid) continue;
      deps.delete(before.metadata.uid);
      if (deps.size === 0) this.#byOwner.delete(ref.uid);
    }
    const uid = after?.metadata.uid;
    if (!uid) return;
    for (const ref of has ?? []) {
      let deps = this.#byOwner.get(ref.uid);
      if (!deps) this.#byOwner.set(ref.uid, (deps = new Set()));
      deps.add(uid);
    }
  }

  #emit(change: StoreChange): void {
    for (const l of [...this.#listeners]) l(change);
  }
}

function keyOf(obj: KObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name ?? "");
}
