/**
 * `loopscope run --scenario <name> --out FILE [--klog FILE] [--timeout S]`: headless. Starts the
 * embedded API server and the controller, runs the scenario, waits until it settles, writes the
 * JSONL trace (header + one event per line) and optionally the klog text (what the Go controller
 * would print with the STAGE patch at -v=2). Exit 0; 1 with a one-line reason (timeout, cluster
 * error, the cluster or its Foo API gone mid-run); 2 on usage errors.
 *
 * Also: --kubeconfig PATH [--context NAME] [--install-crd] to run against a real cluster,
 * --workers N, --resync S, --hot-loop, --idempotent-status, and -v=N to copy klog lines to stderr
 * (`loopscope run … -v=2 2>&1 | tee /tmp/trace.log` gives a log the klog replayer reads).
 */
import { closeSync, existsSync, openSync, unlinkSync } from "node:fs";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { encodeEvent, encodeHeader, otherControllerNote, type TraceEvent } from "@loopscope/trace";
import { CacheSyncTimeout } from "@loopscope/controller";
import { integerIn } from "../cli/args.ts";
import { CACHE_SYNC_TIMEOUT_MS, startSession, type ClusterSpec } from "../session/session.ts";
import { ANSWER_WITHIN_MS } from "../session/cluster-check.ts";
import { checkingLine } from "../session/checking-line.ts";
import { noAnswerReason } from "../session/request-failure.ts";
import { ClusterReachabilityMonitor, stoppedAnswering } from "../session/cluster-reachability.ts";
import { shownServer } from "../session/shown-server.ts";
import { FooApiMonitor, saysFooApiGone } from "../session/foo-api-presence.ts";
import { FOO_API_GONE_MID_RUN } from "../session/foo-api-line.ts";
import { EventLog } from "../scenarios/event-log.ts";
import { scenarios } from "../scenarios/index.ts";
import { runScenario, ScenarioInterrupted } from "../scenarios/run-scenario.ts";
import { KubeClient } from "../scenarios/kube-client.ts";
import { leftOnClusterLine } from "../scenarios/left-on-cluster.ts";
import { outcomeLine } from "../scenarios/outcome.ts";
import {
  abandonOutput,
  closeOutput,
  commitOutput,
  openOutput,
  sameOutputFile,
  STDOUT,
} from "../cli/output-file.ts";
import { defaultKubeconfig } from "../up/flags.ts";
import { count } from "../cli/count.ts";

export const usage = `usage: loopscope run --scenario <name> --out FILE [options]

Runs one workshop scenario headless — the embedded API server (or a real cluster) and the Foo
controller — until it settles, and writes its trace: JSONL for replay, stats and excerpt, and
optionally the log the Go controller would print.

  --scenario NAME      what to run (below)
  --out FILE           the JSONL trace (header + one event per line; "-" = stdout)
  --klog FILE          also the klog text, as the patched Go controller prints it at -v=2
                       ("-" = stdout)
  --timeout S          give up after S seconds, start-up included, with exit 1 (default 60)
  -v=N                 copy klog lines to stderr: STAGE lines from 2, "Processing object" from 4
  --kubeconfig PATH    run against that cluster instead of the embedded one
  --context NAME       kubeconfig context (default: its current one); without --kubeconfig,
                       in $KUBECONFIG's first file or ~/.kube/config
  --install-crd        apply the Foo CRD to that cluster first
  --workers N          controller workers (default 2, or the scenario's)
  --resync S           informer resync period in seconds (default 30, or the scenario's; 0: none)
  --hot-loop           the hot-loop lesson: every pass writes a fresh status.lastSyncedAt
  --idempotent-status  its fix: skip the status write when nothing would change

scenarios:
${Object.entries(scenarios)
  .map(([name, s]) => `  ${name.padEnd(20)} ${s.title}${s.injectsFaults ? " (embedded only)" : ""}`)
  .join("\n")}`;

interface RunArgs {
  scenario: string;
  out: string;
  klog?: string;
  timeoutS: number;
  kubeconfig?: string;
  context?: string;
  installCrd: boolean;
  workers?: number;
  resyncS?: number;
  hotLoop: boolean;
  idempotentStatus: boolean;
  /** -v=N: klog lines to stderr (STAGE lines from 2, "Processing object" from 4). */
  verbosity?: number;
}

export function parseArgs(argv: string[]): RunArgs | string {
  const a: Partial<RunArgs> = {
    timeoutS: 60,
    installCrd: false,
    hotLoop: false,
    idempotentStatus: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const eq = flag.indexOf("=");
    const name = eq > 0 ? flag.slice(0, eq) : flag;
    const value = (): string | undefined => (eq > 0 ? flag.slice(eq + 1) : argv[++i]);
    const num = (what: string): number | string => {
      const v = value();
      const n = Number(v);
      return v !== undefined && Number.isFinite(n) && n >= 0
        ? n
        : `${what} needs a number ≥ 0, got ${v ?? "nothing"}`;
    };
    switch (name) {
      case "--scenario":
        a.scenario = value();
        break;
      case "--out":
        a.out = value();
        break;
      case "--klog":
        a.klog = value();
        break;
      case "--kubeconfig":
        a.kubeconfig = value();
        break;
      case "--context":
        a.context = value();
        break;
      case "--install-crd":
        a.installCrd = true;
        break;
      case "--hot-loop":
        a.hotLoop = true;
        break;
      case "--idempotent-status":
        a.idempotentStatus = true;
        break;
      case "-v":
      case "--v": {
        const n = num("-v");
        if (typeof n === "string") return n;
        a.verbosity = n;
        break;
      }
      case "--timeout": {
        const n = num("--timeout");
        if (typeof n === "string") return n;
        a.timeoutS = n;
        break;
      }
      case "--workers": {
        // As `up` takes it: a controller with no worker (or half of one) never reconciles.
        try {
          a.workers = integerIn("--workers", value() ?? "", 1, 64);
        } catch (e) {
          return (e as Error).message;
        }
        break;
      }
      case "--resync": {
        const n = num("--resync");
        if (typeof n === "string") return n;
        a.resyncS = n;
        break;
      }
      default:
        return `unknown option ${flag}`;
    }
  }
  if (!a.scenario) return "--scenario is required";
  if (!scenarios[a.scenario])
    return `unknown scenario "${a.scenario}" (known: ${Object.keys(scenarios).join(", ")})`;
  if (!a.out) return "--out is required";
  if (a.out === STDOUT && a.klog === STDOUT)
    return "--out - and --klog - cannot both be stdout: write one of them to a file";
  if (
    a.klog !== undefined &&
    a.out !== STDOUT &&
    a.klog !== STDOUT &&
    sameOutputFile(a.out, a.klog)
  )
    return `--out ${a.out} and --klog ${a.klog} are the same file: write them to two files`;
  return a as RunArgs;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    process.stderr.write(
      `loopscope run: ${args}\n${usage.split("\n")[0]}\n(loopscope run --help says more)\n`,
    );
    return 2;
  }
  const scenario = scenarios[args.scenario]!;
  const log = (m: string) => process.stderr.write(`loopscope run: ${m}\n`);
  // One deadline for the whole run: a cluster that never answers must not outlast --timeout.
  const deadline = Date.now() + args.timeoutS * 1000;
  const remainingMs = () => Math.max(0, deadline - Date.now());
  // Before the scenario runs, not after: its seconds of work would be lost to a typo in a path.
  for (const path of [args.out, args.klog]) {
    const why = path === undefined || path === STDOUT ? undefined : unwritable(path);
    if (why !== undefined) {
      log(`cannot write ${path}: ${why}`);
      return 1;
    }
  }
  const events = new EventLog();
  // Both files are written beside themselves and renamed at the end: a run that fails before
  // its trace exists leaves an earlier trace of that name as it was. "-" is stdout.
  const klogOut = args.klog ? openOutput(args.klog) : undefined;
  // --context alone means the usual kubeconfig, as for `up` (and kubectl).
  const kubeconfig = args.kubeconfig ?? (args.context ? defaultKubeconfig() : undefined);
  if (kubeconfig && scenario.injectsFaults) {
    log(
      `scenario ${scenario.name} slows or breaks the API server on purpose: it runs on the embedded one only (without --kubeconfig and --context)`,
    );
    await close(klogOut);
    if (args.klog) await abandonOutput(args.klog);
    return 1;
  }
  const cluster: ClusterSpec = kubeconfig
    ? {
        kind: "kubeconfig",
        path: kubeconfig,
        context: args.context,
        installCrd: args.installCrd,
      }
    : // Seeded ids: the same scenario draws the same picture (uids included) run after run.
      { kind: "embedded", apiserverOpts: { seed: 1 } };
  let session;
  let reachability: ClusterReachabilityMonitor | undefined;
  // The cluster gone (a kubeconfig's), or its Foo API (the CRD deleted), while nothing the scenario
  // asks would notice: mid-pass, the controller's requests fail and are retried, the key never
  // settles, and the run would wait out its timeout. The reason is the run's last word.
  const gone = new AbortController();
  const fooApi = new FooApiMonitor();
  fooApi.onChange((now) => {
    if (!now.served) gone.abort(FOO_API_GONE_MID_RUN);
  });
  try {
    session = await startSession({
      cluster,
      workers: args.workers ?? scenario.session?.workers,
      resyncMs: args.resyncS !== undefined ? args.resyncS * 1000 : scenario.session?.resyncMs,
      lessons: {
        ...scenario.lessons,
        ...(args.hotLoop ? { hotLoopBug: true } : {}),
        ...(args.idempotentStatus ? { idempotentStatus: true } : {}),
      },
      onEvent: events.push,
      klog: klogWriter(klogOut, args.verbosity),
      verbosity: Math.max(2, args.verbosity ?? 0),
      answerWithinMs: Math.min(ANSWER_WITHIN_MS, remainingMs()),
      onChecking: (server, context) => log(checkingLine(server, context)),
      cacheSyncTimeoutMs: Math.min(CACHE_SYNC_TIMEOUT_MS, remainingMs()),
      // A failed list or watch is the first sign of an outage: ask the cluster at once. A 404
      // from the Foo informer's is the Foo API gone.
      onInformerError: (e) => {
        reachability?.suspect();
        fooApi.informerFailed(e);
      },
      onOtherController: (o) => log(`warning: ${otherControllerNote(o)}`),
    });
  } catch (err) {
    // --timeout bounds the caches' sync too: when it ran out there, it is the reason.
    const cut = (err as Error).cause instanceof CacheSyncTimeout && remainingMs() === 0;
    log(
      cut
        ? `scenario ${scenario.name} timed out after ${args.timeoutS} s, while the controller was starting (its caches had not synced)`
        : (err as Error).message,
    );
    await close(klogOut);
    if (args.klog) await abandonOutput(args.klog);
    return 1;
  }
  let code = 0;
  let settled = false;
  // Ctrl-C stops the scenario, not the process: the trace so far is still written.
  const stop = new AbortController();
  const onInterrupt = () => {
    log("interrupted: stopping the scenario and writing the trace so far");
    stop.abort();
  };
  process.once("SIGINT", onInterrupt);
  const server = shownServer(session.kubeConfig.getCurrentCluster()?.server) ?? session.clusterName;
  // A kubeconfig's cluster is probed as `up` probes it; the embedded one lives and dies with this
  // process.
  if (!session.apiserver) {
    reachability = new ClusterReachabilityMonitor({ kubeConfig: session.kubeConfig, server });
    reachability.onChange((now) => {
      if (!now.reachable) gone.abort(stoppedAnswering(server, now.error));
    });
    reachability.start();
  }
  const kube = new KubeClient(session.kubeConfig);
  try {
    for (const done of session.changedCluster) log(done);
    log(`scenario ${scenario.name} on ${session.clusterName}`);
    await runScenario(scenario, {
      session,
      events,
      timeoutMs: remainingMs(),
      log,
      signal: AbortSignal.any([stop.signal, gone.signal]),
      kube,
    });
    settled = true;
  } catch (err) {
    // A create refused for the Foo API going or gone (the CRD deleted as it was made): the same
    // end, though the Foo informer has not told it yet (or never will, while the CRD terminates).
    if (saysFooApiGone(err)) gone.abort(FOO_API_GONE_MID_RUN);
    if (err instanceof ScenarioInterrupted && !gone.signal.aborted) code = 130;
    else {
      // A cluster or its Foo API gone mid-run: said as such, not as the request that noticed.
      const lost = noAnswerReason(err);
      if (gone.signal.aborted) log(String(gone.signal.reason));
      else log(lost === undefined ? (err as Error).message : stoppedAnswering(server, lost));
      code = 1;
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    await reachability?.stop();
    await session.stop();
  }
  // Said once the controller has stopped: the passes it ran while stopping (a hot loop's last,
  // dropped) are in the trace written below, and `stats` of it must count what this line says.
  const outcome = settled ? outcomeLine(events.analyzer, kube.appliedFoos) : undefined;
  if (outcome !== undefined) log(outcome);
  // The embedded cluster goes with this process; a kubeconfig's keeps what the scenario made —
  // but no Foo once its CRD is deleted, which takes every Foo with it.
  const served = fooApi.state().served;
  const left = kube.left().filter((o) => served || o.kind !== "foo");
  const leftLine = kubeconfig
    ? leftOnClusterLine(left, {
        kubeconfig,
        context: session.kubeConfig.getCurrentContext(),
      })
    : undefined;
  if (leftLine !== undefined) log(leftLine);
  await writeTrace(openOutput(args.out), events.events, {
    scenario: scenario.name,
    cluster: session.clusterName,
  });
  await commitOutput(args.out);
  await close(klogOut);
  if (args.klog) await commitOutput(args.klog);
  const shown = (path: string) => (path === STDOUT ? "stdout" : path);
  log(
    `${count(events.events.length, "event")} → ${shown(args.out)}${args.klog ? ` (klog: ${shown(args.klog)})` : ""}`,
  );
  return code;
}

/** The --klog file gets STAGE lines (-v=2 at least); -v=N also copies lines to stderr. */
function klogWriter(
  file: Writable | undefined,
  verbosity: number | undefined,
): ((line: string) => void) | undefined {
  const toStderr = verbosity !== undefined && verbosity > 0;
  if (!file && !toStderr) return undefined;
  return (line) => {
    file?.write(line + "\n");
    if (toStderr) process.stderr.write(line + "\n");
  };
}

async function writeTrace(
  out: Writable,
  evs: TraceEvent[],
  meta: Record<string, string>,
): Promise<void> {
  out.write(encodeHeader({ created: new Date().toISOString(), source: "live", extra: meta }));
  for (const e of evs) {
    if (!out.write(encodeEvent(e))) await once(out, "drain");
  }
  await close(out);
}

async function close(s: Writable | undefined): Promise<void> {
  if (s) await closeOutput(s);
}

/** Why `path` cannot be written, in a few words, if it cannot; a file already there is kept. */
function unwritable(path: string): string | undefined {
  try {
    const existed = existsSync(path);
    closeSync(openSync(path, "a"));
    if (!existed) unlinkSync(path);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "its folder does not exist";
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    if (code === "EISDIR") return "it is a folder";
    return err instanceof Error ? err.message : String(err);
  }
}
