/** What the HTTP handlers share: the registry, the watch hub, faults and timing options. */
import type { FaultInjector } from "../faults.ts";
import type { Registry } from "../registry.ts";
import type { WatchHub } from "../store/watch-hub.ts";

export interface ServerContext {
  registry: Registry;
  hub: WatchHub;
  faults: FaultInjector;
  bookmarkIntervalMs: number;
  /** ApiServerOptions.tooLargeResourceVersionWaitMs. */
  resourceVersionWaitMs: number;
  now: () => number;
}
