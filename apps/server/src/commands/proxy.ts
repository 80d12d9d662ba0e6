/**
 * `loopscope proxy`: a Kubernetes API proxy in front of the embedded API server (or a
 * kubeconfig's cluster) that traces the controller you point at it, with its own dashboard.
 * Stdout carries only what a user copies (the URLs, the KUBECONFIG lines, the recording's path);
 * progress goes to stderr.
 */
import { delimiter, relative, resolve } from "node:path";
import { flagsOrExit, intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { DEFAULT_PORT, defaultKubeconfig, recordFlag } from "../up/flags.ts";
import { ensureWebBuild, WEB_DIST } from "../up/web-build.ts";
import { openBrowser } from "../up/open-browser.ts";
import { untilSignal } from "../up/signals.ts";
import { recordingFailedLine, recordingIncompleteLine } from "../up/recording-lines.ts";
import { corePrimaryHint } from "../proxy/primary-hint.ts";
import { startProxyRun } from "../proxy/start-proxy.ts";
import { reachabilityLine } from "../session/reachability-line.ts";
import { shellWord } from "../cli/shell-word.ts";
import { DEFAULT_PASS_GAP_MS } from "../proxy/wire-tracer.ts";

export const usage = `usage: loopscope proxy [options]

A Kubernetes API proxy for tracing any controller without changing it. It fronts the embedded API
server (or --kubeconfig's cluster), writes a kubeconfig for your controller and prints its
export KUBECONFIG=… line; run the controller with it. Every request is forwarded unchanged; the
watch events the controller receives and the writes it makes are recorded to runs/<time>.jsonl and
drawn live in the dashboard, passes inferred from them (docs/proxy.md). Ctrl-C stops.

  --kubeconfig FILE      front this cluster, with this kubeconfig's credentials (FILE may be a
                         list, a:b, as $KUBECONFIG is)
  --context NAME         the kubeconfig's context (default: its current context; alone:
                         $KUBECONFIG or ~/.kube/config)
  --port N               the proxy's port on 127.0.0.1 (default: any free port)
  --dashboard-port N     the dashboard's port (default ${DEFAULT_PORT}; 0 = any free port)
  --for GROUP/KIND       the controller's primary objects, e.g. samplecontroller.k8s.io/Foo or
                         apps/Deployment (repeatable; default: the kinds it writes status to)
  --record FILE          record to FILE, continuing it if it exists (default runs/<time>.jsonl)
  --open                 open the dashboard in a browser (xdg-open)
  --no-build             serve apps/web/dist as it is (skip the rebuild check)
`;

interface ProxyFlags {
  kubeconfig?: string;
  context?: string;
  port: number;
  dashboardPort: number;
  primaries: string[];
  record?: string;
  open: boolean;
  noBuild: boolean;
}

export function parseProxyFlags(argv: string[]): ProxyFlags | "help" {
  const { values, positionals } = parseFileArgs(argv, {
    kubeconfig: { type: "string" },
    context: { type: "string" },
    port: { type: "string" },
    "dashboard-port": { type: "string" },
    for: { type: "string", multiple: true },
    record: { type: "string" },
    open: { type: "boolean" },
    "no-build": { type: "boolean" },
  });
  if (values.help) return "help";
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const primaries = (values.for ?? []).map((gk) => {
    // "group/Kind", or "Kind" for the core group; kinds are capitalized, groups are not.
    const m = /^(?:([a-z0-9]([-a-z0-9.]*[a-z0-9])?)\/)?([A-Z][A-Za-z0-9]*)$/.exec(gk);
    if (!m) throw new UsageError(`--for takes GROUP/KIND (e.g. apps/Deployment), got "${gk}"`);
    return gk;
  });
  return {
    // --context alone means the usual kubeconfig ($KUBECONFIG's files, else ~/.kube/config), as for `up`.
    kubeconfig: values.kubeconfig ?? (values.context ? defaultKubeconfig() : undefined),
    context: values.context,
    port: intFlag("port", values.port, 0, 65535) ?? 0,
    dashboardPort: intFlag("dashboard-port", values["dashboard-port"], 0, 65535) ?? DEFAULT_PORT,
    primaries,
    record: recordFlag(values.record),
    open: values.open === true,
    noBuild: values["no-build"] === true,
  };
}

/** kubectl straight to the cluster the proxy fronts: its context, which need not be current. */
export function kubectlGetFoos(kubeconfig: string, context: string | undefined): string {
  const ctx = context !== undefined ? ` --context ${shellWord(context)}` : "";
  return `KUBECONFIG=${shellWord(kubeconfig)} kubectl${ctx} get foos`;
}

/** Each file of a kubeconfig list made absolute: the printed kubectl line works from anywhere. */
function resolvedList(files: string): string {
  return files
    .split(delimiter)
    .filter((f) => f !== "")
    .map((f) => resolve(f))
    .join(delimiter);
}

export async function run(argv: string[]): Promise<number> {
  const err = (line: string) => process.stderr.write(`loopscope: ${line}\n`);
  const parsed = flagsOrExit(argv, parseProxyFlags, usage, err);
  if ("exit" in parsed) return parsed.exit;
  const { flags } = parsed;
  if (!flags.noBuild) {
    try {
      await ensureWebBuild(err);
    } catch (e) {
      err(`${(e as Error).message}; serving the API without a fresh dashboard`);
    }
  }
  // A failure to start (port taken, kubeconfig unreadable) reaches main: one line, exit 1.
  const r = await startProxyRun({
    upstream: flags.kubeconfig
      ? { kind: "kubeconfig", path: resolvedList(flags.kubeconfig), context: flags.context }
      : { kind: "embedded" },
    port: flags.port,
    dashboardPort: flags.dashboardPort,
    webRoot: WEB_DIST,
    runsDir: resolve("runs"),
    record: flags.record ? resolve(flags.record) : undefined,
    primaries: flags.primaries,
    onPrimary: (gk) => err(`tracing ${gk} objects (the controller wrote status to one)`),
    onReachability: (now, before) => err(reachabilityLine(now, before)),
  });

  const shown = (p: string) => (p.startsWith(process.cwd()) ? relative(process.cwd(), p) : p);
  process.stdout.write(
    [
      `dashboard  ${r.dashboard.url}`,
      `proxy      ${r.proxy.server.url} → ${r.server}`,
      `recording  ${shown(r.recordingPath)}`,
      `# your controller (through the proxy):`,
      `export KUBECONFIG=${shellWord(r.controllerKubeconfig)}`,
      `# kubectl, straight to the cluster (kubectl through the proxy works too, unrecorded):`,
      kubectlGetFoos(r.kubectlKubeconfig, flags.context),
    ].join("\n") + "\n",
  );
  err(
    flags.primaries.length > 0
      ? `tracing ${flags.primaries.join(", ")} objects; Ctrl-C to stop`
      : `waiting for the controller's first status write to learn its primary kind (or pass --for); passes end ${DEFAULT_PASS_GAP_MS} ms after their last read or write at the latest; Ctrl-C to stop`,
  );
  // A kind without its group is the core group's: said at once when the cluster has none such.
  const cluster = r.upstreamConfig;
  for (const p of flags.primaries.filter((p) => !p.includes("/"))) {
    const hint = await corePrimaryHint(cluster, p);
    if (hint !== undefined) err(`warning: ${hint}`);
  }
  const recording = r.hub.recording;
  recording?.whenFailed((f) => err(recordingFailedLine("proxy", shown(r.recordingPath), f)));
  if (flags.open) await openBrowser(r.dashboard.url, err);
  const signal = await untilSignal(() => err("stopping now (second signal)"));
  err(`${signal}: stopping …`);
  await r.stop();
  const failure = recording?.failure;
  if (failure) {
    err(recordingIncompleteLine(shown(r.recordingPath), failure, r.hub.lastSeq));
    return 1;
  }
  err(`stopped; ${r.hub.lastSeq} events recorded in ${shown(r.recordingPath)}`);
  return 0;
}
