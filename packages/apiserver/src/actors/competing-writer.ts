/**
 * A second writer on one object: every interval it bumps an annotation (a new resourceVersion),
 * so a controller that writes from a stale cache gets 409 Conflict on its next update — the
 * classic optimistic-concurrency lesson, on demand.
 */
import { clone } from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { fooResource } from "../resources/foo.ts";
import type { CompetingWriterTarget } from "../types.ts";

export const COMPETING_WRITER_ANNOTATION = "loopscope.dev/competing-writer";

export class CompetingWriter {
  readonly #registry: Registry;
  #timer: ReturnType<typeof setInterval> | undefined;
  #writes = 0;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  get active(): boolean {
    return this.#timer !== undefined;
  }

  start(target: CompetingWriterTarget): void {
    this.stop();
    const def = target.kind === "Foo" ? fooResource : deploymentResource;
    this.#timer = setInterval(
      () => {
        const current = this.#registry.store.get(def, target.namespace, target.name);
        if (!current) return;
        const next = clone(current);
        next.metadata.annotations = {
          ...next.metadata.annotations,
          [COMPETING_WRITER_ANNOTATION]: String(++this.#writes),
        };
        this.#registry.update(def, target.namespace, target.name, next);
      },
      Math.max(1, target.intervalMs),
    );
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
