/**
 * `loopscope replay FILE`: the dashboard over a saved trace (our JSONL or a klog log), served
 * with the same API and stream as a live run, read-only, until Ctrl-C. FILE "-" is stdin, read
 * to its end before the dashboard starts, its lines kept in memory as a pipe's are.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { isLoopbackHost } from "../http/security.ts";
import { PortTakenError, startDashboardServer } from "../dashboard/dashboard-server.ts";
import { count } from "../cli/count.ts";
import { InputError } from "../cli/input.ts";
import { loadTrace, replayBackend } from "../dashboard/replay-backend.ts";
import { RunsFolder } from "../recorded-runs/runs-folder.ts";
import { flagsOrExit } from "../cli/args.ts";
import { DEFAULT_PORT, parseReplayFlags } from "../up/flags.ts";
import { ensureWebBuild, WEB_DIST } from "../up/web-build.ts";
import { openBrowser } from "../up/open-browser.ts";
import { untilSignal } from "../up/signals.ts";
import { shareWarning } from "../up/share-warning.ts";

export const usage = `usage: loopscope replay FILE [options]

Serves the dashboard over FILE (a loopscope .jsonl trace or a klog log with STAGE lines;
"-" = stdin; gzip is detected).

  --port N      dashboard port (default ${DEFAULT_PORT}; 0 = any free port)
  --host H      address to listen on (default 127.0.0.1)
  --share       also print a read-only URL for others to watch (with --host, for others
                on the network: on 127.0.0.1 it opens only on this machine)
  --open        open the dashboard in a browser (xdg-open)
  --no-open     don't (the default); the later of the two wins
  --no-build    serve apps/web/dist as it is (skip the rebuild check)
  --year N      the year of klog lines (klog prints none; default: the year
                of a kubectl logs --timestamps prefix or a Docker log record's
                time, else the current year — last year's if
                that puts the first line after today)
`;

export async function run(argv: string[]): Promise<number> {
  const err = (line: string) => process.stderr.write(`loopscope: ${line}\n`);
  const parsed = flagsOrExit(argv, parseReplayFlags, usage, err);
  if ("exit" in parsed) return parsed.exit;
  const { flags } = parsed;
  // "-" is stdin, and a pipe (`<(cat f)`, mkfifo) is read like a file: once, as stdin is.
  const file = flags.file === "-" ? "-" : resolve(flags.file);
  if (file !== "-") {
    const info = await stat(file).catch(() => undefined);
    if (!info || info.isDirectory()) {
      err(`${flags.file}: ${info ? "is a directory" : "no such file"}`);
      return 1;
    }
  }
  if (!isLoopbackHost(flags.host)) {
    err(`warning: listening on ${flags.host}: anyone who can reach it can load the dashboard page`);
  }
  if (!flags.noBuild) {
    await ensureWebBuild(err).catch((e: Error) => err(e.message));
  }
  let loaded;
  try {
    loaded = await loadTrace(file, flags.year);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    err(e.message);
    return 1;
  }
  err(`${flags.file}: ${count(loaded.hub.lastSeq, "event")} (${loaded.format})`);
  for (const d of loaded.diagnostics.slice(0, 10)) err(`  line ${d.line}: ${d.message}`);
  if (loaded.diagnosticCount > 10) err(`  … ${count(loaded.diagnosticCount - 10, "more problem")}`);
  let server;
  try {
    server = await startDashboardServer({
      backend: replayBackend(file, loaded, new RunsFolder(resolve("runs"))),
      host: flags.host,
      port: flags.port,
      webRoot: WEB_DIST,
      share: flags.share,
    });
  } catch (e) {
    if (!(e instanceof PortTakenError)) throw e;
    err(e.message);
    return 1;
  }
  process.stdout.write(
    `dashboard  ${server.url}\n` + (server.shareUrl ? `read-only  ${server.shareUrl}\n` : ""),
  );
  const local = shareWarning(flags);
  if (local) err(local);
  if (flags.open) await openBrowser(server.url, err);
  const signal = await untilSignal(() => err("stopping now (second signal)"));
  err(`${signal}: stopping`);
  await server.close();
  return 0;
}
