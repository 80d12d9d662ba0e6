/**
 * `loopscope up`: the embedded cluster (or --kubeconfig), the Foo controller and the dashboard,
 * recorded to runs/<timestamp>.jsonl, until Ctrl-C. Stdout carries only what a user copies (the
 * URLs, the KUBECONFIG line, the recording's path); progress and warnings go to stderr.
 */
import { relative, resolve } from "node:path";
import { isLoopbackHost } from "../http/security.ts";
import { PortTakenError } from "../dashboard/dashboard-server.ts";
import { NotARecordingError } from "../hub/recording.ts";
import { RecordingInUseError } from "../hub/recording-lock.ts";
import { shellWord } from "../cli/shell-word.ts";
import { ClusterError } from "../session/session.ts";
import { checkingLine } from "../session/checking-line.ts";
import { flagsOrExit } from "../cli/args.ts";
import { DEFAULT_PORT, parseUpFlags } from "../up/flags.ts";
import { ensureWebBuild, WEB_DIST } from "../up/web-build.ts";
import { openBrowser } from "../up/open-browser.ts";
import { startLive } from "../up/start-live.ts";
import { reachabilityLine } from "../session/reachability-line.ts";
import { fooApiLine } from "../session/foo-api-line.ts";
import { informerHealthLine } from "../session/informer-health-line.ts";
import { shareWarning } from "../up/share-warning.ts";
import { recordingFailedLine, recordingIncompleteLine } from "../up/recording-lines.ts";
import { untilSignal } from "../up/signals.ts";
import { otherControllerNote } from "@loopscope/trace";

export const usage = `usage: loopscope up [options]

Starts an embedded Kubernetes-compatible API server (or uses --kubeconfig), the Foo controller
and the dashboard; records every stage event to runs/<time>.jsonl; stops cleanly on Ctrl-C.

  --port N            dashboard port (default ${DEFAULT_PORT}; 0 = any free port)
  --host H            address to listen on (default 127.0.0.1; others are reachable from the network)
  --kubeconfig FILE   run the controller against this cluster instead of the embedded one
  --context NAME      kubeconfig context (default: its current context; alone: $KUBECONFIG or ~/.kube/config)
  --install-crd       apply the Foo CRD to that cluster if it is missing
  --workers N         controller workers (default 2)
  --resync D          informer resync period, e.g. 30s, 500ms, 0 = off (default 30s)
  --record FILE       record to FILE, continuing it if it exists; one run at a time
                      (default runs/<time>.jsonl)
  --share             also print a read-only URL for others to watch (with --host, for
                      others on the network: on 127.0.0.1 it opens only on this machine)
  --open              open the dashboard in a browser (xdg-open)
  --no-open           don't (the default); the later of the two wins
  --no-build          serve apps/web/dist as it is (skip the rebuild check)
  -v                  print the controller's klog STAGE lines on stderr
`;

export async function run(argv: string[]): Promise<number> {
  const err = (line: string) => process.stderr.write(`loopscope: ${line}\n`);
  const parsed = flagsOrExit(argv, parseUpFlags, usage, err);
  if ("exit" in parsed) return parsed.exit;
  const { flags } = parsed;
  if (!isLoopbackHost(flags.host)) {
    err(`warning: listening on ${flags.host}: anyone who can reach it can load the dashboard page`);
  }
  if (!flags.noBuild) {
    try {
      await ensureWebBuild(err);
    } catch (e) {
      err(`${(e as Error).message}; serving the API without a fresh dashboard`);
    }
  }
  let live;
  try {
    live = await startLive({
      cluster: flags.kubeconfig
        ? {
            kind: "kubeconfig",
            path: flags.kubeconfig,
            context: flags.context,
            installCrd: flags.installCrd,
          }
        : { kind: "embedded" },
      host: flags.host,
      port: flags.port,
      webRoot: WEB_DIST,
      runsDir: resolve("runs"),
      record: flags.record ? resolve(flags.record) : undefined,
      workers: flags.workers,
      resyncMs: flags.resyncMs,
      share: flags.share,
      klog: flags.verbose ? (line) => process.stderr.write(line + "\n") : undefined,
      onReachability: (now, before) => err(reachabilityLine(now, before)),
      onFooApi: (now) => err(fooApiLine(now)),
      onInformers: (now, before) => {
        const line = informerHealthLine(now, before);
        if (line) err(line);
      },
      onChecking: (server, context) => err(checkingLine(server, context)),
      onOtherController: (o) => err(`warning: ${otherControllerNote(o)}`),
    });
  } catch (e) {
    if (
      e instanceof PortTakenError ||
      e instanceof ClusterError ||
      e instanceof NotARecordingError ||
      e instanceof RecordingInUseError
    ) {
      err(e.message);
      return 1;
    }
    throw e;
  }
  const shown = (p: string) => (p.startsWith(process.cwd()) ? relative(process.cwd(), p) : p);
  const out = [
    `dashboard  ${live.server.url}`,
    ...(live.server.shareUrl ? [`read-only  ${live.server.shareUrl}`] : []),
    `recording  ${shown(live.recordingPath)}`,
    // A whole line to paste into another shell (the README says "an export KUBECONFIG=… line").
    // With --context, kubectl needs it too: the file's current context may be another cluster.
    `export KUBECONFIG=${shellWord(live.kubeconfigPath)}` +
      (flags.context
        ? `; alias kubectl=${shellWord(`kubectl --context ${shellWord(flags.context)}`)}`
        : ""),
  ];
  process.stdout.write(out.join("\n") + "\n");
  const local = shareWarning(flags);
  if (local) err(local);
  for (const done of live.session.changedCluster) err(done);
  const recording = live.hub.recording;
  recording?.whenFailed((f) => err(recordingFailedLine("up", shown(live.recordingPath), f)));
  err(`up (cluster: ${live.session.clusterName}); Ctrl-C to stop`);
  if (flags.open) await openBrowser(live.server.url, err);

  const signal = await untilSignal(() => err("stopping now (second signal)"));
  err(`${signal}: stopping …`);
  await live.stop();
  const failure = recording?.failure;
  if (failure) {
    err(recordingIncompleteLine(shown(live.recordingPath), failure, live.hub.lastSeq));
    return 1;
  }
  err(`stopped; ${live.hub.lastSeq} events recorded in ${shown(live.recordingPath)}`);
  return 0;
}
