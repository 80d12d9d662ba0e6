/**
 * A second writer on one object: every interval it bumps an annotation (a new resourceVersion),
 * so a controller that writes from a stale cache gets 409 Conflict on its next update — the
 * classic optimistic-concurrency lesson, on demand.
 *
 * Its update can be refused like anyone's: the Foo's CRD tightened so the Foo no longer
 * validates (422), the object or its CRD going (404). A real competing writer gets the status and
 * tries again at its next tick; so does this one, keeping the last refusal for `state()`. It
 * threw out of its timer, and the uncaught error ended the process (`up` with it).
 */
import { ApiError } from "../errors.ts";
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
  #refused: string | undefined;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  get active(): boolean {
    return this.#timer !== undefined;
  }

  /** The last refusal of its update since it started ("422 Invalid: …"), if any. */
  get refused(): string | undefined {
    return this.#refused;
  }

  start(target: CompetingWriterTarget): void {
    this.stop();
    this.#refused = undefined;
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
        try {
          this.#registry.update(def, target.namespace, target.name, next);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          this.#refused = `${err.status.code} ${err.status.reason ?? ""}: ${err.message}`;
        }
      },
      Math.max(1, target.intervalMs),
    );
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
