/**
 * Where the user typed the command. `pnpm loopscope …` runs the CLI in the repository root, but
 * the paths on its command line (`stats traces/a.jsonl`, `replay ../b.log`, `--out x.jsonl`) are
 * the user's, relative to the directory they typed it in, which pnpm passes as INIT_CWD.
 *
 * Only for the `loopscope` script itself: a process it starts, or one a test starts from inside
 * `pnpm test`, inherits INIT_CWD without being typed anywhere.
 */
export function typedInDirectory(
  env: Record<string, string | undefined>,
  cwd: string,
): string | undefined {
  if (env.npm_lifecycle_event !== "loopscope") return undefined;
  const dir = env.INIT_CWD;
  return dir && dir !== cwd ? dir : undefined;
}
