/**
 * One scenario on a fresh embedded cluster, without the dashboard: start a session feeding an
 * EventLog, run the scenario, stop everything. The scenario tests use it with short simulated
 * timings (pods ready in 30 ms), so a whole scenario takes well under a second of cluster time.
 */
import type { ApiServerOptions } from "../session/embedded.ts";
import { startSession } from "../session/session.ts";
import { EventLog } from "./event-log.ts";
import { runScenario } from "./run-scenario.ts";
import type { Scenario } from "./scenario.ts";

export interface HeadlessOptions {
  apiserverOpts?: ApiServerOptions;
  /** Default: the scenario's own, else 2. */
  workers?: number;
  /** Informer resync (default 0: off, so only the scenario's actions cause passes). */
  resyncMs?: number;
  timeoutMs?: number;
  log?: (m: string) => void;
}

export interface HeadlessRun {
  events: EventLog;
  /** Why the scenario failed, if it did (the session is stopped either way). */
  error?: Error;
}

export async function runHeadless(
  scenario: Scenario,
  opts: HeadlessOptions = {},
): Promise<HeadlessRun> {
  const events = new EventLog();
  const session = await startSession({
    cluster: { kind: "embedded", apiserverOpts: opts.apiserverOpts },
    workers: opts.workers ?? scenario.session?.workers,
    resyncMs: opts.resyncMs ?? 0,
    lessons: scenario.lessons,
    onEvent: events.push,
  });
  try {
    await runScenario(scenario, {
      session,
      events,
      timeoutMs: opts.timeoutMs ?? 30_000,
      log: opts.log,
    });
    return { events };
  } catch (err) {
    return { events, error: err as Error };
  } finally {
    await session.stop();
  }
}

/** Simulated cluster timings short enough for tests (the defaults model a real rollout: 1.5 s). */
export const FAST_CLUSTER: ApiServerOptions = {
  deploymentReadyDelayMs: 30,
  deploymentStepDelayMs: 5,
  garbageCollectionDelayMs: 5,
  seed: 1,
};
