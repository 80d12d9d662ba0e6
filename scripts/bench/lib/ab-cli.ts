/**
 * Two checkouts of loopscope, one CLI command run by each in turn: on a shared machine whose speed
 * drifts within minutes, a change to `stats` or `excerpt` shows only side by side. Each run is a
 * fresh `node --import tsx …/main.ts` process (as `pnpm loopscope` runs it, start-up included);
 * the rounds alternate which checkout goes first. Prints each run's wall and CPU time (user +
 * system), then the medians.
 *
 *   git worktree add /tmp/wt-before HEAD~1 && ln -s "$PWD/node_modules" /tmp/wt-before/
 *   pnpm exec tsx scripts/bench/lib/ab-cli.ts /tmp/wt-before . 8 stats "$PWD/FILE" --json
 *
 * Each command runs in its checkout's directory: give files as absolute paths. (A worktree needs
 * each package's node_modules too: `cp -a` them, or run `pnpm install` there.)
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { median } from "./stats.ts";

interface Run {
  wallMs: number;
  cpuMs: number;
}

/** Runs the command in `root`; its wall time, ms. */
function runOnce(root: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", resolve(root, "apps/server/src/main.ts"), ...args],
    // Its own root as cwd: tsx and @loopscope/* resolve from the checkout under test.
    { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("exit", (code) => {
      if (code !== 0) fail(new Error(`${root}: exit ${code}\n${stderr.slice(-500)}`));
      else done(performance.now() - t0);
    });
  });
}

/**
 * CPU time of this process's waited-for children so far (Linux: /proc/self/stat's cutime and
 * cstime, in clock ticks of 10 ms): a run's is the difference across it.
 */
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

async function main(): Promise<void> {
  const [a, b, roundsArg, ...args] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  if (!a || !b || !(rounds > 0) || args.length === 0) {
    process.stderr.write("usage: ab-cli.ts ROOT_A ROOT_B ROUNDS COMMAND [ARGS…]\n");
    process.exitCode = 2;
    return;
  }
  const runs: Record<"A" | "B", Run[]> = { A: [], B: [] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const);
    for (const which of order) {
      const before = childrenCpuMs();
      const wallMs = await runOnce(which === "A" ? a : b, args);
      const run = { wallMs, cpuMs: childrenCpuMs() - before };
      runs[which].push(run);
      process.stdout.write(`${which} wall ${run.wallMs.toFixed(0)} ms, CPU ${run.cpuMs} ms\n`);
    }
  }
  for (const which of ["A", "B"] as const) {
    const wall = median(runs[which].map((r) => r.wallMs));
    const cpu = median(runs[which].map((r) => r.cpuMs));
    const root = which === "A" ? a : b;
    process.stdout.write(`${which} median wall ${wall.toFixed(0)} ms, CPU ${cpu} ms (${root})\n`);
  }
}

await main();
