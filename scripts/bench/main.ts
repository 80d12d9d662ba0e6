/**
 * `pnpm bench [name…] [--smoke] [--runs N] [--events N] [--json OUT] [--list]`
 *
 * Runs the benches in scripts/bench/<name>.ts (all of them when no name is given), each at least
 * 5 times beside its baseline, prints a table and writes the numbers to .bench/results.json
 * (or OUT). `--smoke` uses tiny inputs and 2 runs so it finishes in seconds; it is part of
 * `pnpm test`. `--events N` sets the size of generated inputs (load, pan, memory, click, size).
 * The interface a bench implements is scripts/bench/lib/types.ts.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { cpus, loadavg } from "node:os";
import type { Bench } from "./lib/types.ts";
import { rowsOf, runBench, type BenchResult } from "./lib/runner.ts";
import { renderTable } from "./lib/table.ts";
import { withDeadline } from "./lib/deadline.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");

/**
 * A bench that hangs (a load that never ends, a page that never answers) fails after this long
 * instead of holding `pnpm test` — and CI — until it is killed. Smoke benches take seconds.
 */
const SMOKE_DEADLINE_MS = 5 * 60_000;
const DEADLINE_MS = 60 * 60_000;

function benchFiles(): Map<string, string> {
  const found = new Map<string, string>();
  for (const f of readdirSync(HERE).sort()) {
    // Helpers, tests and scratch files (x.tmp.ts, dotfiles) are not benches.
    const helper = f === "main.ts" || f.startsWith(".") || /\.(test|d|tmp)\.ts$/.test(f);
    if (!f.endsWith(".ts") || helper) continue;
    found.set(f.slice(0, -3), join(HERE, f));
  }
  return found;
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        smoke: { type: "boolean" },
        runs: { type: "string" },
        events: { type: "string" },
        json: { type: "string" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = args;
  const files = benchFiles();
  if (values.help || values.list) {
    process.stdout.write(
      `usage: pnpm bench [name…] [--smoke] [--runs N] [--events N] [--json OUT]\nbenches: ${[...files.keys()].join(", ")}\n`,
    );
    return 0;
  }
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && (!Number.isInteger(runs) || runs < 1)) {
    process.stderr.write("bench: --runs must be a positive integer\n");
    return 2;
  }
  const events = values.events === undefined ? undefined : Number(values.events.replace(/_/g, ""));
  if (events !== undefined && (!Number.isInteger(events) || events < 1)) {
    process.stderr.write("bench: --events must be a positive integer\n");
    return 2;
  }
  const names = positionals.length > 0 ? positionals : [...files.keys()];
  const unknown = names.filter((n) => !files.has(n));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: no bench named ${unknown.join(", ")} (have: ${[...files.keys()].join(", ")})\n`,
    );
    return 2;
  }
  const smoke = values.smoke === true;
  const tmpDir = join(ROOT, ".bench", "tmp");
  mkdirSync(tmpDir, { recursive: true });
  const ctx = {
    smoke,
    tmpDir,
    ...(events !== undefined ? { events } : {}),
    log: (m: string) => process.stderr.write(`  ${m}\n`),
  };
  // The machine may be shared: keep its load next to the numbers it skews.
  const loadBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  const results: BenchResult[] = [];
  let failed = 0;
  for (const name of names) {
    try {
      const mod = (await import(pathToFileURL(files.get(name)!).href)) as { default?: Bench };
      if (!mod.default || typeof mod.default.setup !== "function")
        throw new Error("no default export implementing Bench");
      process.stderr.write(`${name}: ${mod.default.description}\n`);
      const r = await withDeadline(
        runBench(mod.default.name ?? name, mod.default, ctx, runs),
        smoke ? SMOKE_DEADLINE_MS : DEADLINE_MS,
        name,
      );
      for (const [k, v] of Object.entries(r.info)) process.stderr.write(`  ${k}: ${v}\n`);
      results.push(r);
    } catch (e) {
      failed++;
      process.stderr.write(
        `bench ${name}: FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
    }
  }
  const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100);
  if (results.length > 0) process.stdout.write("\n" + renderTable(results.flatMap(rowsOf)));
  for (const r of results) if (r.report) process.stdout.write(`\n${r.name}:\n${r.report}`);
  process.stdout.write(
    `load average (1/5/15 min): before ${loadBefore.join(" ")}, after ${loadAfter.join(" ")}; ${cpus().length} CPUs\n`,
  );
  const out = values.json ? resolve(values.json) : join(ROOT, ".bench", "results.json");
  mkdirSync(dirname(out), { recursive: true });
  const doc = {
    date: new Date().toISOString(),
    smoke,
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    loadavg: { before: loadBefore, after: loadAfter },
    benches: results,
  };
  writeFileSync(out, JSON.stringify(doc, null, 2) + "\n");
  process.stderr.write(`results: ${out}\n`);
  return failed > 0 ? 1 : 0;
}

// Exit explicitly: a bench that failed or hung may leave a browser, server or timer behind, and
// waiting for those to end would hang the test command that runs us.
main(process.argv.slice(2)).then(
  (code) => process.stdout.write("", () => process.exit(code)),
  (e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
