/**
 * Runs the scenario registry (scenarios/) from the dashboard, one at a time, on the live
 * session. A scenario watches its own EventLog; this one is fed from the hub for the run's
 * duration, seqs re-based so its first event is 1 (causeSeq links shifted alike, so its
 * analysis still links enqueues to their watch events). runScenario switches the scenario's
 * lessons on and restores them after.
 *
 * On a kubeconfig's cluster a run is refused while the cluster is known to be down, and ends at
 * once when it goes away mid-run: the controller's requests then fail and are retried, its keys
 * never settle, and nothing the scenario asks would notice before its timeout. Every scenario
 * makes a Foo: on either cluster one is refused while the cluster does not serve the Foo API, and
 * ends at once when it stops serving it mid-run (its CRD deleted), for the same reason — or when
 * a request of its own is refused for it first. The page's stop button ends one too (stop): its
 * run then answers that it stopped, and what it was waiting for.
 */
import { FOO_API_GONE } from "@loopscope/protocol";
import type { TraceEvent, UnsequencedEvent } from "@loopscope/trace";
import { scenarios } from "../scenarios/index.ts";
import { EventLog } from "../scenarios/event-log.ts";
import { runScenario } from "../scenarios/run-scenario.ts";
import { KubeClient } from "../scenarios/kube-client.ts";
import { leftOnClusterLine } from "../scenarios/left-on-cluster.ts";
import { outcomeLine } from "../scenarios/outcome.ts";
import {
  notAnswering,
  stoppedAnswering,
  type ClusterReachabilityMonitor,
} from "../session/cluster-reachability.ts";
import { saysFooApiGone, type FooApiMonitor } from "../session/foo-api-presence.ts";
import { FOO_API_GONE_MID_RUN } from "../session/foo-api-line.ts";
import type { Session } from "../session/session.ts";
import type { TraceHub } from "../hub/trace-hub.ts";
import { HttpError } from "../http/respond.ts";
import type { ScenarioRunner } from "./live-backend.ts";

export interface ScenarioRunnerOptions {
  /** A kubeconfig's cluster's probe (the embedded one lives and dies with this process). */
  reachability?: ClusterReachabilityMonitor;
  /** Whether the cluster serves the Foo API. */
  fooApi?: Pick<FooApiMonitor, "state" | "onChange">;
  /** How long a scenario may take (default 60 s). */
  timeoutMs?: number;
  log?: (m: string) => void;
  /**
   * A kubeconfig's cluster's kubeconfig (as given): what a scenario leaves there is said, with the
   * kubectl command that removes it, as `loopscope run` says it.
   */
  kubeconfig?: string;
}

export function scenarioRunner(
  session: Session,
  hub: TraceHub,
  {
    reachability,
    fooApi,
    timeoutMs = 60_000,
    log = () => {},
    kubeconfig,
  }: ScenarioRunnerOptions = {},
): ScenarioRunner {
  let running: string | undefined;
  /** The run under way: how to end it, and what it was doing ("waiting for …"). */
  let current: { gone: AbortController; doing?: string } | undefined;
  return {
    // A scenario meant for another worker count runs with this controller's: its title says so.
    // A real cluster is not ours to slow down or break: the scenarios that do are not offered.
    list: () =>
      Object.values(scenarios)
        .filter((s) => !s.injectsFaults || session.apiserver !== undefined)
        .map(({ name, title, teaches, session: wants }) => {
          const has = session.controller.workerCount;
          const differs = wants?.workers !== undefined && wants.workers !== has;
          return {
            name,
            title: differs ? `${title} (here: ${has} worker${has === 1 ? "" : "s"})` : title,
            teaches,
          };
        }),
    async run(name) {
      const scenario = scenarios[name];
      if (!scenario) throw new HttpError(400, `no scenario named ${name}`);
      if (scenario.injectsFaults && session.apiserver === undefined)
        throw new HttpError(409, `${name} slows or breaks the API server: embedded cluster only`);
      if (running) throw new HttpError(409, `scenario ${running} is still running`);
      const now = reachability?.state();
      if (now && !now.reachable) throw new HttpError(503, `scenario ${name}: ${notAnswering(now)}`);
      if (fooApi?.state().served === false)
        throw new HttpError(503, `scenario ${name}: ${FOO_API_GONE}`);
      running = name;
      const gone = new AbortController();
      const run: NonNullable<typeof current> = { gone };
      current = run;
      // Why the run cannot go on, as its answer says it.
      const unlisten = reachability?.onChange((now) => {
        if (!now.reachable) gone.abort(stoppedAnswering(now.server, now.error));
      });
      const unlistenFooApi = fooApi?.onChange((now) => {
        if (!now.served) gone.abort(FOO_API_GONE_MID_RUN);
      });
      const events = new EventLog();
      const base = hub.lastSeq;
      const stop = hub.subscribe((e) => events.push(rebased(e, base)));
      // What the scenario found is the page's answer; what it is doing ("applying …", "waiting
      // for …"), the last of it, is what a stop says it was at.
      const found: string[] = [];
      const kube = new KubeClient(session.kubeConfig);
      const left = () =>
        kubeconfig === undefined
          ? undefined
          : leftOnClusterLine(kube.left(), {
              kubeconfig,
              context: session.kubeConfig.getCurrentContext(),
            });
      try {
        // runScenario switches the scenario's lessons on and back; its notes go to the hub.
        await runScenario(scenario, {
          session,
          events,
          timeoutMs,
          log: (m) => {
            log(m);
            found.push(m);
          },
          doing: (m) => {
            log(m);
            run.doing = m;
          },
          emit: (e) => hub.push(e),
          signal: gone.signal,
          kube,
        });
        // A scenario that said nothing of its own says what it came to.
        const outcome =
          found.length === 0 ? outcomeLine(events.analyzer, kube.appliedFoos) : undefined;
        if (outcome !== undefined) found.push(outcome);
        const leftLine = left();
        if (leftLine) found.push(leftLine);
        const workers = scenario.session?.workers;
        const has = session.controller.workerCount;
        // The live controller keeps its own worker count; say so when the scenario wants another.
        const how =
          workers !== undefined && workers !== has
            ? ` with this dashboard's ${has} worker${has === 1 ? "" : "s"} (it is meant for ${workers}: loopscope up --workers ${workers})`
            : "";
        return `scenario ${name} done${how}${found.length > 0 ? `: ${found.join("; ")}` : ""}`;
      } catch (err) {
        // A create refused for the Foo API going or gone, which the Foo informer may not tell.
        if (saysFooApiGone(err)) gone.abort(FOO_API_GONE_MID_RUN);
        const leftLine = left();
        // Stopped on purpose: said as an outcome, with where it was and what it left.
        if (gone.signal.reason === STOPPED) {
          const doing = run.doing ? ` while ${run.doing}` : "";
          return `scenario ${name} stopped from the dashboard${doing}${leftLine ? `; ${leftLine}` : ""}`;
        }
        if (gone.signal.aborted)
          throw new HttpError(502, `scenario ${name}: ${String(gone.signal.reason)}`);
        if (err instanceof HttpError) throw err;
        throw new HttpError(
          502,
          `scenario ${name}: ${(err as Error).message}${leftLine ? `; ${leftLine}` : ""}`,
        );
      } finally {
        unlisten?.();
        unlistenFooApi?.();
        stop();
        running = undefined;
        current = undefined;
      }
    },
    stop() {
      if (!current || !running) throw new HttpError(409, "no scenario is running");
      current.gone.abort(STOPPED);
      return `stopping scenario ${running}`;
    },
  };
}

/** The reason a run ends when the page's stop button asks it to. */
const STOPPED = "stopped from the dashboard";

function rebased(e: TraceEvent, base: number): UnsequencedEvent {
  const { seq: _seq, ...rest } = e;
  if (rest.stage === "enqueue" && rest.causeSeq !== undefined) {
    return rest.causeSeq > base
      ? { ...rest, causeSeq: rest.causeSeq - base }
      : { ...rest, causeSeq: undefined };
  }
  return rest;
}
