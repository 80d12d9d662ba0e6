/**
 * A simulated CRD finalizer controller (apiextensions-apiserver's crd_finalizer.go): a CRD marked
 * for deletion has its Terminating condition set to InstanceDeletionInProgress, every custom
 * resource of its type deleted (each a DELETED watch event, as deleteCollection gives), and once
 * none is left — finalizers of their own may hold some a while — loses the cleanup finalizer, so
 * the CRD goes. The type then stops being served (resources/crd-serving.ts) and its open watches
 * end (see EmbeddedApiServer). Work runs `delayMs` after the triggering change, as the real
 * controller works from its queue.
 */
import { ApiError } from "../errors.ts";
import { clone, deepEqual, rfc3339 } from "../object.ts";
import type { Registry } from "../registry.ts";
import { RESOURCES } from "../resources/catalog.ts";
import { crdResource } from "../resources/crd.ts";
import { crdNameOf } from "../resources/crd-serving.ts";
import {
  CLEANUP_FINALIZER,
  DELETION_IN_PROGRESS,
  withTerminating,
} from "../resources/crd-termination.ts";
import type { StoreChange } from "../store/object-store.ts";

export class CrdFinalizer {
  readonly #registry: Registry;
  readonly #delayMs: number;
  readonly #now: () => number;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry, delayMs: number, now: () => number = Date.now) {
    this.#registry = registry;
    this.#delayMs = delayMs;
    this.#now = now;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
    // A CRD marked before the start (a restart) is finished too.
    for (const crd of this.#registry.store.list(crdResource))
      if (crd.metadata.deletionTimestamp) this.#later(crd.metadata.name ?? "");
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #onChange(c: StoreChange): void {
    if (c.resource === crdResource) {
      if (c.type !== "DELETED" && c.object.metadata.deletionTimestamp)
        this.#later(c.object.metadata.name ?? "");
    } else if (!c.resource.builtIn && c.type === "DELETED") {
      // One of its resources gone (one a finalizer held): the CRD may be free to go.
      this.#later(crdNameOf(c.resource));
    }
  }

  #later(crdName: string): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      try {
        this.#finalize(crdName);
      } catch (e) {
        // A concurrent client got there first (404/409); the next change retriggers it.
        if (!(e instanceof ApiError)) throw e;
      }
    }, this.#delayMs);
    this.#timers.add(t);
  }

  #finalize(name: string): void {
    const registry = this.#registry;
    let crd = registry.store.get(crdResource, undefined, name);
    if (!crd?.metadata.deletionTimestamp) return;
    if (!(crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) return;
    const inProgress = withTerminating(crd, DELETION_IN_PROGRESS, rfc3339(this.#now()));
    if (!deepEqual(inProgress.status, crd.status))
      crd = registry.update(crdResource, undefined, name, inProgress, { subresource: "status" });
    const defs = RESOURCES.filter((d) => !d.builtIn && crdNameOf(d) === name);
    for (const def of defs) {
      for (const obj of registry.store.list(def)) {
        if (!obj.metadata.deletionTimestamp)
          registry.delete(def, obj.metadata.namespace, obj.metadata.name ?? "");
      }
    }
    // Gone at once unless finalizers of their own hold them; the last one's DELETED comes back.
    if (defs.some((d) => registry.store.list(d).length > 0)) return;
    const next = clone(crd);
    next.metadata.finalizers = (next.metadata.finalizers ?? []).filter(
      (f) => f !== CLEANUP_FINALIZER,
    );
    registry.update(crdResource, undefined, name, next);
  }
}
