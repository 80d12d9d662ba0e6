/**
 * Events expire `ttlMs` after they were last written, as kube-apiserver's `--event-ttl` (1 h)
 * makes them (each write renews the lease of the Event's etcd key): a long `up`, scenario after
 * scenario, keeps what a cluster would keep, not every Event since it started. A recorder that
 * updates an expired Event gets 404 and creates it again, as on a cluster.
 */
import { ApiError } from "../errors.ts";
import type { Registry } from "../registry.ts";
import { eventResource } from "../resources/event.ts";
import type { StoreChange } from "../store/object-store.ts";

/** Expired Events are looked for this often (a quarter of a short TTL), at most once a minute. */
const SWEEP_MAX_MS = 60_000;

export class EventExpiry {
  readonly #registry: Registry;
  readonly #ttlMs: number;
  /** Last write time (ms) per Event uid. */
  readonly #written = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry, ttlMs: number) {
    this.#registry = registry;
    this.#ttlMs = ttlMs;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
    this.#timer ??= setInterval(
      () => this.#sweep(),
      Math.min(SWEEP_MAX_MS, Math.max(10, this.#ttlMs / 4)),
    );
    this.#timer.unref();
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #onChange(c: StoreChange): void {
    if (c.resource !== eventResource) return;
    const uid = c.object.metadata.uid ?? "";
    if (c.type === "DELETED") this.#written.delete(uid);
    else this.#written.set(uid, Date.now());
  }

  #sweep(): void {
    const before = Date.now() - this.#ttlMs;
    for (const [uid, at] of this.#written) {
      if (at > before) continue;
      this.#written.delete(uid);
      const found = this.#registry.store.getByUid(uid);
      if (!found) continue;
      const { namespace, name = "" } = found.object.metadata;
      try {
        this.#registry.delete(eventResource, namespace, name);
      } catch (e) {
        // Deleted meanwhile (a client, its namespace's deletion).
        if (!(e instanceof ApiError)) throw e;
      }
    }
  }
}
