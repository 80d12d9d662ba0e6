/**
 * A scenario: a scripted thing a learner would do to the cluster (create a Foo, delete its
 * Deployment, make a competing write…), run headless by `loopscope run --scenario <name>` or from
 * the dashboard. Add one by writing scenarios/<name>.ts exporting a `Scenario` and listing it in
 * scenarios/index.ts.
 *
 * Contract: `run(ctx)` performs the actions over HTTP (ctx.kube) and returns once what it set out
 * to show has happened — usually `await ctx.settled([key])`. It throws with a one-line reason when
 * the cluster does not get there. It never reaches into the controller or the API server's
 * internals; fault injection goes through `ctx.faults` (embedded server only).
 */
import type { ApiServer } from "../session/embedded.ts";
import type { Lessons } from "@loopscope/controller";
import type { Session } from "../session/session.ts";
import type { EventLog } from "./event-log.ts";
import type { KubeClient } from "./kube-client.ts";

export interface SettleOptions {
  /** The key must stay quiescent this long (default 300 ms). */
  quietMs?: number;
  /** Give up after this long (default: the run's remaining time). */
  timeoutMs?: number;
  /** An extra condition on the cluster, e.g. the Foo's status reached its spec. */
  until?: () => Promise<boolean>;
}

export interface ScenarioContext {
  session: Session;
  /** The embedded API server's fault injection; undefined on a kubeconfig cluster. */
  faults: ApiServer["faults"] | undefined;
  kube: KubeClient;
  events: EventLog;
  /**
   * Resolves when every key is quiescent (see EventLog.isQuiescent) and `until` holds. It says
   * so first (`doing`: "waiting for default/example-foo to settle").
   */
  settled(keys: string[], opts?: SettleOptions): Promise<void>;
  /** What the scenario found or came to, for the user (stderr; the dashboard's answer). */
  log(message: string): void;
  /**
   * What the scenario is doing now: "applying …", "waiting for …" (stderr). Apart from `log`, so
   * the dashboard's stop can say what a run was waiting for without reading it out of a finding.
   */
  doing(what: string): void;
  /**
   * Puts a `note` event into the trace (src "scenario"), so replay and narration can say what the
   * scenario did at that moment ("closing every watch"). `key` ties it to one Foo's lanes.
   */
  mark(text: string, key?: string): void;
  /** Aborted when the run's timeout expires. */
  signal: AbortSignal;
}

export interface Scenario {
  /** CLI name: `--scenario <name>`. */
  name: string;
  title: string;
  /** One sentence: what the learner sees. */
  teaches: string;
  /**
   * Lessons this scenario needs. runScenario switches them for the run and restores the previous
   * values afterwards (so a hot loop shown on the dashboard stops when the scenario ends).
   */
  lessons?: Partial<Lessons>;
  /**
   * Controller options the scenario needs (e.g. 4 workers). Headless runs start the controller
   * with them; a dashboard session keeps the workers `loopscope up --workers` gave it.
   */
  session?: { workers?: number; resyncMs?: number };
  /** It slows or breaks the API server on purpose: only the embedded one can (see needFaults). */
  injectsFaults?: true;
  run(ctx: ScenarioContext): Promise<void>;
  /**
   * Runs after `run`, once runScenario has switched the lessons back. `stopped`: that changed a
   * lesson (the dashboard's controller had them off: a hot loop's bug goes off and the loop
   * ends); false when they stay on (a headless run starts its controller with them). It waits
   * for what the switch stops, and says then what the scenario found: by that time for good, so
   * its counts are those the trace's findings end with.
   */
  afterLessons?(ctx: ScenarioContext, stopped: boolean): Promise<void>;
}
