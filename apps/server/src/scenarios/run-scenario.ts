/**
 * Runs a scenario against a session: builds its context (kube client, settle helper, faults) and
 * enforces the time limit. Shared by `loopscope run` and the dashboard.
 */
import { nowMicros, type LessonName } from "@loopscope/controller";
import type { UnsequencedEvent } from "@loopscope/trace";
import type { Session } from "../session/session.ts";
import type { EventLog } from "./event-log.ts";
import { KubeClient } from "./kube-client.ts";
import type { Scenario, ScenarioContext, SettleOptions } from "./scenario.ts";

export class ScenarioTimeout extends Error {
  override name = "ScenarioTimeout";
}

export interface RunScenarioOptions {
  session: Session;
  events: EventLog;
  timeoutMs: number;
  log?: (m: string) => void;
  /** Where `ctx.doing` goes (default: `log`). */
  doing?: (what: string) => void;
  /**
   * Where `ctx.mark` notes go: the stream the trace is recorded from (the dashboard's hub).
   * Default: `events` itself (headless runs record the EventLog).
   */
  emit?: (e: UnsequencedEvent) => unknown;
  /** Stops the scenario early (Ctrl-C on `loopscope run`): it rejects with ScenarioInterrupted. */
  signal?: AbortSignal;
  /** The scenario's client, for a caller that asks it afterwards what was left (`left()`). */
  kube?: KubeClient;
}

export class ScenarioInterrupted extends Error {
  override name = "ScenarioInterrupted";
}

export async function runScenario(scenario: Scenario, opts: RunScenarioOptions): Promise<void> {
  const { session, events } = opts;
  const emit = opts.emit ?? events.push;
  // Switch the scenario's lessons on for the run; put the previous values back afterwards.
  const before = session.controller.getLessons();
  const lessons = Object.entries(scenario.lessons ?? {}) as [LessonName, boolean][];
  for (const [name, on] of lessons) session.controller.setLesson(name, on);
  const restore = () => {
    for (const [name] of lessons) session.controller.setLesson(name, before[name]);
  };
  // Whether putting them back changes anything (it does not when the run began with them on).
  const stopped = lessons.some(([name, on]) => before[name] !== on);
  const abort = new AbortController();
  const deadline = Date.now() + opts.timeoutMs;
  let reason = "";
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    abort.abort();
  };
  if (opts.signal?.aborted) interrupt();
  opts.signal?.addEventListener("abort", interrupt);
  const doing = opts.doing ?? opts.log ?? (() => {});
  const kube = opts.kube ?? new KubeClient(session.kubeConfig);
  kube.stopOn(abort.signal);
  const ctx: ScenarioContext = {
    session,
    faults: session.apiserver?.faults,
    kube,
    events,
    log: opts.log ?? (() => {}),
    doing,
    mark: (text, key = "") =>
      emit({ stage: "note", key, ts: nowMicros(), level: "I", src: "scenario", text }),
    signal: abort.signal,
    settled: (keys, so) => {
      doing(`waiting for ${keys.join(", ")} to settle`);
      return settle(events, keys, so ?? {}, deadline, abort.signal, (r) => (reason = r));
    },
  };
  try {
    await Promise.race([
      (async () => {
        await scenario.run(ctx);
        restore();
        await scenario.afterLessons?.(ctx, stopped);
      })(),
      new Promise<never>((_, reject) => {
        const end = () =>
          reject(
            interrupted
              ? new ScenarioInterrupted(`scenario ${scenario.name} interrupted`)
              : new ScenarioTimeout(
                  `scenario ${scenario.name} timed out after ${opts.timeoutMs / 1000} s${reason ? `: ${reason}` : ""}`,
                ),
          );
        // A run stopped before it began (its signal aborted already) hears no "abort" event.
        if (abort.signal.aborted) end();
        else abort.signal.addEventListener("abort", end);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", interrupt);
    restore();
  }
}

async function settle(
  events: EventLog,
  keys: string[],
  opts: SettleOptions,
  deadline: number,
  signal: AbortSignal,
  why: (r: string) => void,
): Promise<void> {
  const quietMs = opts.quietMs ?? 300;
  const until = opts.timeoutMs !== undefined ? Date.now() + opts.timeoutMs : deadline;
  let quietSince = Date.now();
  let seen = events.events.length;
  for (;;) {
    if (signal.aborted) throw new ScenarioTimeout("aborted");
    const now = Date.now();
    if (events.events.length !== seen) {
      seen = events.events.length;
      quietSince = now;
    }
    const notQuiet = keys.filter((k) => !events.isQuiescent(k));
    if (notQuiet.length > 0) {
      why(`${notQuiet.join(", ")} not quiescent`);
      quietSince = now;
    } else if (now - quietSince >= quietMs) {
      if (!opts.until || (await opts.until())) return;
      why(`${keys.join(", ")} quiescent but its condition does not hold yet`);
    }
    if (now > until) throw new ScenarioTimeout(`settling ${keys.join(", ")}: timed out`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
