/**
 * Runs the scenario registry (scenarios/) from the dashboard, one at a time, on the live
 * session. A scenario watches its own EventLog; this one is fed from the hub for the run's
 * duration, seqs re-based so its first event is 1 (causeSeq links shifted alike, so its
 * analysis still links enqueues to their watch events). runScenario switches the scenario's
 * lessons on and restores them after.
 */
import type { TraceEvent, UnsequencedEvent } from "@loopscope/trace";
import { scenarios } from "../scenarios/index.ts";
import { EventLog } from "../scenarios/event-log.ts";
import { runScenario } from "../scenarios/run-scenario.ts";
import type { Session } from "../session/session.ts";
import type { TraceHub } from "../hub/trace-hub.ts";
import { HttpError } from "../http/respond.ts";
import type { ScenarioRunner } from "./live-backend.ts";

export function scenarioRunner(
  session: Session,
  hub: TraceHub,
  timeoutMs = 60_000,
  log: (m: string) => void = () => {},
): ScenarioRunner {
  let running: string | undefined;
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
      running = name;
      const events = new EventLog();
      const base = hub.lastSeq;
      const stop = hub.subscribe((e) => events.push(rebased(e, base)));
      // What the scenario found (not its progress: "applying …", "waiting for …") is the page's.
      const found: string[] = [];
      const said = (m: string) => {
        log(m);
        if (!/^(waiting for|applying|deleted) /.test(m)) found.push(m);
      };
      try {
        // runScenario switches the scenario's lessons on and back; its notes go to the hub.
        await runScenario(scenario, {
          session,
          events,
          timeoutMs,
          log: said,
          emit: (e) => hub.push(e),
        });
        const workers = scenario.session?.workers;
        const has = session.controller.workerCount;
        // The live controller keeps its own worker count; say so when the scenario wants another.
        const how =
          workers !== undefined && workers !== has
            ? ` with this dashboard's ${has} worker${has === 1 ? "" : "s"} (it is meant for ${workers}: loopscope up --workers ${workers})`
            : "";
        return `scenario ${name} done${how}${found.length > 0 ? `: ${found.join("; ")}` : ""}`;
      } catch (err) {
        throw err instanceof HttpError
          ? err
          : new HttpError(502, `scenario ${name}: ${(err as Error).message}`);
      } finally {
        stop();
        running = undefined;
      }
    },
  };
}

function rebased(e: TraceEvent, base: number): UnsequencedEvent {
  const { seq: _seq, ...rest } = e;
  if (rest.stage === "enqueue" && rest.causeSeq !== undefined) {
    return rest.causeSeq > base
      ? { ...rest, causeSeq: rest.causeSeq - base }
      : { ...rest, causeSeq: undefined };
  }
  return rest;
}
