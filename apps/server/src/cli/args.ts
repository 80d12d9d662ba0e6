/** Strict flag parsing for the file commands: an unknown flag or a bad value is a usage error. */
import { parseArgs, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {}

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
    throw new UsageError(e instanceof Error ? e.message.split("\n")[0] : String(e));
  }
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
