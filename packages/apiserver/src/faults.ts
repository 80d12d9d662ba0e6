/**
 * Run-time fault injection: per-verb latency, failing the next N requests, closing or expiring
 * watches, and a competing writer. Faults act on resource requests only; discovery and OpenAPI
 * always answer, as on a struggling but reachable cluster.
 */
import type { CompetingWriter } from "./actors/competing-writer.ts";
import { injected } from "./errors.ts";
import type { WatchHub } from "./store/watch-hub.ts";
import type { CompetingWriterTarget, FaultState, Faults, Verb } from "./types.ts";

export class FaultInjector implements Faults {
  readonly #latency: Partial<Record<Verb, number>> = {};
  #failRemaining = 0;
  #failStatus = 500;
  #failVerbs: Set<Verb> | undefined;
  #expireNext = false;
  readonly #hub: WatchHub;
  readonly #writer: CompetingWriter;
  readonly competingWriter: Faults["competingWriter"];

  constructor(hub: WatchHub, writer: CompetingWriter) {
    this.#hub = hub;
    this.#writer = writer;
    this.competingWriter = {
      start: (target: CompetingWriterTarget) => writer.start(target),
      stop: () => writer.stop(),
    };
  }

  setLatency(verb: Verb, ms: number): void {
    if (ms > 0) this.#latency[verb] = ms;
    else delete this.#latency[verb];
  }

  closeAllWatches(): void {
    this.#hub.closeAll();
  }

  silenceAllWatches(): void {
    this.#hub.silenceAll();
  }

  expireNextWatch(): void {
    this.#expireNext = true;
  }

  failNext(n: number, status = 500, verbs?: Verb[]): void {
    this.#failRemaining = Math.max(0, Math.floor(n));
    this.#failStatus = status;
    this.#failVerbs = verbs && verbs.length > 0 ? new Set(verbs) : undefined;
  }

  state(): FaultState {
    return {
      latencyMs: { ...this.#latency },
      failNext: this.#failRemaining,
      competingWriter: this.#writer.active,
      ...(this.#writer.refused ? { competingWriterRefused: this.#writer.refused } : {}),
    };
  }

  /** Called before a resource request is served: waits the latency, then maybe fails it. */
  async before(verb: Verb): Promise<void> {
    const ms = this.#latency[verb];
    if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.#failRemaining > 0 && (!this.#failVerbs || this.#failVerbs.has(verb))) {
      this.#failRemaining--;
      throw injected(this.#failStatus);
    }
  }

  /** True once after expireNextWatch(): that watch gets 410 Expired. */
  takeExpiredWatch(): boolean {
    const expire = this.#expireNext;
    this.#expireNext = false;
    return expire;
  }
}
