/**
 * A simulated garbage collector and namespace controller:
 * - background cascading: when an owner is deleted, every object whose ownerReferences name its
 *   uid is deleted once none of its owners exist (a dangling reference to a deleted owner is
 *   dropped when other owners remain); an object created with only missing owners is collected;
 * - foreground: an owner holding the `foregroundDeletion` finalizer loses it once its dependents
 *   are gone, and a dependent created while it waits (its controller recreating what was deleted)
 *   is deleted in turn; `orphan`: dependents lose their reference, then the finalizer goes;
 * - a Terminating namespace is emptied, then removed.
 * Work runs `delayMs` after the triggering change, as the real collector works asynchronously —
 * except the check that a dependent's deletion unblocked its foreground owner: the real collector
 * makes it in its own graph at once, before the owner's controller, a watch and a round trip
 * away, can recreate the dependent. Delayed, the controller would win that race every time and
 * the owner would never go.
 */
import { ApiError } from "../errors.ts";
import { clone, type KObject, type OwnerReference } from "../object.ts";
import type { Registry } from "../registry.ts";
import { RESOURCES } from "../resources/catalog.ts";
import { namespaceResource } from "../resources/namespace.ts";
import { apiVersionOf, type ResourceDef } from "../resources/resource.ts";
import type { StoreChange } from "../store/object-store.ts";

function isServedKind(ref: OwnerReference): boolean {
  return RESOURCES.some((r) => r.kind === ref.kind && apiVersionOf(r) === ref.apiVersion);
}

function waitsForDependents(owner: KObject): boolean {
  return (
    Boolean(owner.metadata.deletionTimestamp) &&
    (owner.metadata.finalizers ?? []).includes("foregroundDeletion")
  );
}

export class GarbageCollector {
  readonly #registry: Registry;
  readonly #delayMs: number;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry, delayMs: number) {
    this.#registry = registry;
    this.#delayMs = delayMs;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #later(fn: () => void, delayMs = this.#delayMs): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      try {
        fn();
      } catch (e) {
        // A concurrent client got there first (404/409); the next change retriggers the check.
        if (!(e instanceof ApiError)) throw e;
      }
    }, delayMs);
    this.#timers.add(t);
  }

  #onChange(c: StoreChange): void {
    const obj = c.object;
    if (c.type === "DELETED") {
      const uid = obj.metadata.uid ?? "";
      this.#later(() => this.#collectDependents(uid));
      // A dependent going away may unblock a foreground owner or a terminating namespace.
      for (const ref of obj.metadata.ownerReferences ?? [])
        this.#later(() => this.#finishForeground(ref.uid), 0);
      if (obj.metadata.namespace)
        this.#later(() => this.#emptyNamespace(obj.metadata.namespace ?? ""));
      return;
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (obj.metadata.deletionTimestamp) {
      if (c.resource === namespaceResource)
        this.#later(() => this.#emptyNamespace(obj.metadata.name ?? ""));
      if (finalizers.includes("foregroundDeletion"))
        this.#later(() => this.#foreground(c.resource, obj));
      if (finalizers.includes("orphan")) this.#later(() => this.#orphan(c.resource, obj));
    }
    if ((obj.metadata.ownerReferences ?? []).length > 0 && c.type === "ADDED") {
      this.#later(() =>
        this.#collectIfOrphaned(c.resource, obj.metadata.namespace, obj.metadata.name ?? ""),
      );
    }
  }

  #collectDependents(ownerUid: string): void {
    for (const { resource: def, object: obj } of this.#registry.store.dependentsOf(ownerUid)) {
      this.#collectIfOrphaned(def, obj.metadata.namespace, obj.metadata.name ?? "");
    }
  }

  /**
   * Deletes the object when no owner of it is solid (existing and not waiting for its dependents'
   * deletion) — in the foreground if an owner waits, so that owner waits for it too; otherwise
   * drops its references to missing and waiting owners.
   */
  #collectIfOrphaned(def: ResourceDef, namespace: string | undefined, name: string): void {
    const obj = this.#registry.store.get(def, namespace, name);
    if (!obj || obj.metadata.deletionTimestamp) return;
    const refs = obj.metadata.ownerReferences ?? [];
    const solid: OwnerReference[] = [];
    let waiting = 0;
    for (const ref of refs) {
      // An owner of a kind this server does not serve cannot be looked up: like the real
      // collector with an unresolvable kind, leave such references alone.
      const owner = isServedKind(ref) ? this.#owner(ref.uid, namespace) : "unresolvable";
      if (owner === undefined) continue;
      if (owner !== "unresolvable" && waitsForDependents(owner)) waiting++;
      else solid.push(ref);
    }
    if (solid.length === refs.length) return;
    if (solid.length === 0) {
      const propagationPolicy = waiting > 0 ? "Foreground" : "Background";
      this.#registry.delete(def, namespace, name, { propagationPolicy });
      return;
    }
    const next = clone(obj);
    next.metadata.ownerReferences = solid;
    this.#registry.update(def, namespace, name, next);
  }

  /** A namespaced dependent may only be owned by an object in its namespace or a cluster-scoped one. */
  #owner(uid: string, namespace: string | undefined): KObject | undefined {
    const found = this.#registry.store.getByUid(uid);
    if (!found) return undefined;
    const fits = !found.resource.namespaced || found.object.metadata.namespace === namespace;
    return fits ? found.object : undefined;
  }

  #foreground(def: ResourceDef, owner: KObject): void {
    const uid = owner.metadata.uid ?? "";
    for (const { resource: depDef, object: obj } of this.#registry.store.dependentsOf(uid)) {
      if (!obj.metadata.deletionTimestamp) {
        this.#registry.delete(depDef, obj.metadata.namespace, obj.metadata.name ?? "", {
          propagationPolicy: "Foreground",
        });
      }
    }
    this.#finishForeground(uid, def);
  }

  /** Removes `foregroundDeletion` from the owner once no dependent blocks it. */
  #finishForeground(ownerUid: string, def?: ResourceDef): void {
    const found = this.#registry.store.getByUid(ownerUid);
    if (!found || (def && found.resource !== def)) return;
    const owner = found.object;
    if (!(owner.metadata.finalizers ?? []).includes("foregroundDeletion")) return;
    if (this.#registry.store.dependentsOf(ownerUid).length > 0) return;
    this.#removeFinalizer(found.resource, owner, "foregroundDeletion");
  }

  #orphan(def: ResourceDef, owner: KObject): void {
    const uid = owner.metadata.uid ?? "";
    for (const { resource: depDef, object: obj } of this.#registry.store.dependentsOf(uid)) {
      const next = clone(obj);
      next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter(
        (r) => r.uid !== uid,
      );
      if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences;
      this.#registry.update(depDef, obj.metadata.namespace, obj.metadata.name ?? "", next);
    }
    const current = this.#registry.store.getByUid(uid);
    if (current) this.#removeFinalizer(def, current.object, "orphan");
  }

  #removeFinalizer(def: ResourceDef, obj: KObject, finalizer: string): void {
    const next = clone(obj);
    next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.#registry.update(def, obj.metadata.namespace, obj.metadata.name ?? "", next);
  }

  #emptyNamespace(name: string): void {
    const ns = this.#registry.store.get(namespaceResource, undefined, name);
    if (!ns?.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const def of RESOURCES) {
      if (!def.namespaced) continue;
      for (const obj of this.#registry.store.list(def, name)) {
        remaining++;
        if (!obj.metadata.deletionTimestamp)
          this.#registry.delete(def, name, obj.metadata.name ?? "");
      }
    }
    if (remaining === 0) this.#registry.store.delete(namespaceResource, undefined, name);
  }
}
