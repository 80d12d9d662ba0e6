/**
 * A file command (`stats`, `excerpt`, `convert`, `replay` …) as a user runs it, for tests:
 * `tsx apps/server/src/main.ts …` in a child process from the repo's root, with its stdout,
 * stderr and exit code. Each spawn starts tsx afresh (~1–3 s on a busy 2-core machine).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../up/web-build.ts";

/** The tsx binary the commands run under, for a test that runs them from a shell. */
export const TSX = join(REPO_ROOT, "node_modules/.bin/tsx");

export function loopscope(
  args: string[],
  input?: Buffer | string,
  env: Record<string, string> = {},
) {
  const r = spawnSync(TSX, ["apps/server/src/main.ts", ...args], {
    cwd: REPO_ROOT,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
    // A replay that took its file for a trace serves it until Ctrl-C: that is a failure too.
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
