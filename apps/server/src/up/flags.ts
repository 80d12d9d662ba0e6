/**
 * Flags shared by `loopscope up` and `loopscope replay`, parsed strictly: an unknown flag or a
 * malformed value is a usage error (exit 2) with a one-line reason.
 */
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { parseArgs } from "node:util";
import { integerIn, intFlag, UsageError, usageErrorOf } from "../cli/args.ts";

export const DEFAULT_PORT = 7420;
export const DEFAULT_HOST = "127.0.0.1";

export { UsageError } from "../cli/args.ts";

export interface ServeFlags {
  port: number;
  host: string;
  open: boolean;
  share: boolean;
  /** Skip the web build check (serve whatever apps/web/dist holds). */
  noBuild: boolean;
}

export interface UpFlags extends ServeFlags {
  kubeconfig?: string;
  context?: string;
  /** Apply the Foo CRD to the kubeconfig's cluster if it is not there. */
  installCrd: boolean;
  workers: number;
  resyncMs: number;
  record?: string;
  verbose: boolean;
}

const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  open: { type: "boolean" },
  // The default, said out loud; after --open it undoes it (`npm run up -- --no-open`).
  "no-open": { type: "boolean" },
  share: { type: "boolean" },
  "no-build": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** What parseArgs' `tokens` holds that the flags read: options, in command-line order. */
type Tokens = readonly { kind: string; name?: string }[] | undefined;

export function parseUpFlags(argv: string[]): UpFlags | "help" {
  const { values, tokens } = usageErrors(argv, () =>
    parseArgs({
      args: argv,
      strict: true,
      tokens: true,
      options: {
        ...SERVE_OPTIONS,
        kubeconfig: { type: "string" },
        context: { type: "string" },
        "install-crd": { type: "boolean" },
        workers: { type: "string" },
        resync: { type: "string" },
        record: { type: "string" },
        v: { type: "boolean", short: "v" },
      },
    }),
  );
  if (values.help) return "help";
  return {
    ...serveFlags(values, tokens),
    // --context alone means the usual kubeconfig ($KUBECONFIG's first file, else ~/.kube/config).
    kubeconfig: values.kubeconfig ?? (values.context ? defaultKubeconfig() : undefined),
    context: values.context,
    installCrd: values["install-crd"] ?? false,
    workers: integerIn("--workers", values.workers ?? "2", 1, 64),
    resyncMs: duration("--resync", values.resync ?? "30s"),
    record: recordFlag(values.record),
    verbose: values.v ?? false,
  };
}

export function parseReplayFlags(
  argv: string[],
): (ServeFlags & { file: string; year?: number }) | "help" {
  const { values, positionals, tokens } = usageErrors(argv, () =>
    parseArgs({
      args: argv,
      strict: true,
      tokens: true,
      allowPositionals: true,
      options: { ...SERVE_OPTIONS, year: { type: "string" } },
    }),
  );
  if (values.help) return "help";
  if (positionals.length !== 1) throw new UsageError("replay takes exactly one FILE");
  const year = intFlag("year", values.year, 1970, 9999);
  return {
    ...serveFlags(values, tokens),
    file: positionals[0],
    ...(year !== undefined ? { year } : {}),
  };
}

/**
 * `--record FILE`, for `up` and `proxy`. "-" means stdout for the file commands' output, but
 * not here: `up` and `proxy` print on stdout what a user copies (the dashboard's URL, the export
 * KUBECONFIG line), which a recording's lines would bury. Refused, rather than recorded to a
 * file named "-".
 */
export function recordFlag(v: string | undefined): string | undefined {
  if (v === "-")
    throw new UsageError(
      "--record -: stdout carries the dashboard's URL and the lines to copy, not a recording; record to a file",
    );
  return v;
}

export function defaultKubeconfig(): string {
  // Every file $KUBECONFIG lists (the session merges them, as kubectl does).
  const fromEnv = process.env.KUBECONFIG?.split(delimiter).filter((p) => p !== "");
  return fromEnv && fromEnv.length > 0
    ? fromEnv.join(delimiter)
    : join(homedir(), ".kube", "config");
}

function usageErrors<T>(argv: string[], parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw usageErrorOf(err, argv);
  }
}

function serveFlags(
  values: {
    port?: string;
    host?: string;
    share?: boolean;
    "no-build"?: boolean;
  },
  tokens: Tokens,
): ServeFlags {
  const host = values.host ?? DEFAULT_HOST;
  if (!/^[A-Za-z0-9.:-]+$/.test(host))
    throw new UsageError(`--host ${host}: not a host name or address`);
  return {
    port: integerIn("--port", values.port ?? String(DEFAULT_PORT), 0, 65535),
    host,
    open: openFlag(tokens),
    share: values.share ?? false,
    noBuild: values["no-build"] ?? false,
  };
}

/** --open or --no-open, whichever comes last; neither: off. */
function openFlag(tokens: Tokens): boolean {
  let open = false;
  for (const t of tokens ?? []) {
    if (t.kind === "option" && (t.name === "open" || t.name === "no-open")) {
      open = t.name === "open";
    }
  }
  return open;
}

/** "30s", "500ms", "2m", "0" (off), or bare seconds. */
export function duration(flag: string, v: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v);
  if (!m) throw new UsageError(`${flag} ${v}: expected a duration like 30s, 500ms, 2m or 0`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? "s"] ?? 1000;
  return Math.round(Number(m[1]) * unit);
}
