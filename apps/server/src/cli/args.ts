/** Strict flag parsing for the file commands: an unknown flag or a bad value is a usage error. */
import { parseArgs, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {}

/**
 * A command's flags, or the exit code when there are none to run with: 0 after printing `usage`
 * for --help, 2 after a usage error (its one-line reason on stderr, then `usage`).
 */
export function flagsOrExit<F>(
  argv: string[],
  parse: (argv: string[]) => F | "help",
  usage: string,
  err: (line: string) => void,
): { flags: F } | { exit: 0 | 2 } {
  let flags: F | "help";
  try {
    flags = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(e.message);
    process.stderr.write(usage);
    return { exit: 2 };
  }
  if (flags === "help") {
    process.stdout.write(usage);
    return { exit: 0 };
  }
  return { flags };
}

export function parseFileArgs<O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
) {
  try {
    const r = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    return r;
  } catch (e) {
    throw usageErrorOf(e, argv);
  }
}

/**
 * parseArgs' error as a one-line UsageError. Its first line is the reason, except where Node's
 * words would mislead: a value that starts with "-" (`--hot-loop -3`), which parseArgs calls
 * "ambiguous" and explains only on the lines after, says how to pass the value; a mistyped flag
 * is an unknown option, not advice on positionals starting with "-".
 */
export function usageErrorOf(e: unknown, argv: readonly string[]): UsageError {
  const message = e instanceof Error ? e.message : String(e);
  const flag = /^Option '(-[^']+)' argument is ambiguous/.exec(message)?.[1];
  const long = /use '(--[^=']+)=-XYZ'/.exec(message)?.[1];
  const value = flag === undefined ? undefined : argv[argv.indexOf(flag) + 1];
  if (flag !== undefined && long !== undefined && value !== undefined) {
    return new UsageError(
      `${flag} ${value}: a value that starts with "-" is written ${long}=${value}`,
    );
  }
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown !== undefined) return new UsageError(`unknown option ${unknown}`);
  return new UsageError(message.split("\n")[0]);
}

export function intFlag(
  name: string,
  v: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** `v` as an integer from `min` to `max`, else a UsageError naming the flag and the range. */
export function integerIn(flag: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) {
    throw new UsageError(`${flag} ${v}: expected an integer ${min}…${max}`);
  }
  return n;
}
