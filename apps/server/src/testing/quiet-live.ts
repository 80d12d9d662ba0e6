/**
 * `up`'s wiring (startLive) as the in-process tests run it: on `cluster`, the dashboard on any
 * free loopback port serving `dir`, runs under `dir`/runs, one worker and no resync, so a test
 * sees only the passes it causes.
 */
import { join } from "node:path";
import type { LiveOptions } from "../up/start-live.ts";

export function quietLiveOptions(dir: string, cluster: LiveOptions["cluster"]): LiveOptions {
  return {
    cluster,
    host: "127.0.0.1",
    port: 0,
    webRoot: dir,
    runsDir: join(dir, "runs"),
    workers: 1,
    resyncMs: 0,
  };
}
