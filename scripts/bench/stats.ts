/**
 * stats: `loopscope stats FILE --json` end to end, as a user runs it, on a file of each log shape
 * (scripts/gen/shapes.ts, and the same events as JSONL) with 1M events and 60k Foos: MB/s beyond
 * the command's start-up, which the baseline measures (`loopscope stats --help`, the same process
 * that reads no file). --smoke: 2k events, 200 Foos.
 */
import { spawnSync } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LOG_SHAPES, type LogShape } from "../gen/shapes.ts";
import type { Bench, BenchCase } from "./lib/types.ts";
import { genFile, type GenFile } from "./lib/gen-input.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const MAIN = resolve(ROOT, "apps/server/src/main.ts");
const MB = 1e6;
const SHAPES: readonly (LogShape | "jsonl")[] = [...LOG_SHAPES, "jsonl"];

/** Runs `loopscope ARGS` (stdout to /dev/null, as a pipe to a file would take it): its time, ms. */
function loopscope(args: string[]): number {
  const out = openSync("/dev/null", "w");
  try {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], {
      cwd: ROOT,
      stdio: ["ignore", out, "pipe"],
      encoding: "utf8",
    });
    const ms = performance.now() - t0;
    if (r.status !== 0)
      throw new Error(`loopscope ${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
    return ms;
  } finally {
    closeSync(out);
  }
}

const bench: Bench = {
  description: "loopscope stats FILE --json end to end, MB/s beyond start-up, per log shape",
  unit: "MB/s",
  better: "higher",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
    const foos = ctx.smoke ? 200 : 60_000;
    ctx.log(`generating ${SHAPES.length} files of ${events} events, ${foos} Foos (cached)`);
    const files: [string, GenFile][] = [];
    for (const shape of SHAPES) {
      const file = await genFile(ctx.tmpDir, events, shape === "jsonl" ? "jsonl" : "klog", {
        ...(shape === "jsonl" ? {} : { shape }),
        foos,
      });
      files.push([shape, file]);
    }
    /** The latest start-up time: the baseline runs first in every round. */
    let startup = 0;
    const cases: BenchCase[] = files.map(([shape, file]) => ({
      name: shape,
      unit: "MB/s",
      run: () => {
        const ms = loopscope(["stats", file.path, "--json", "--year", "2026"]);
        const beyond = Math.max(1, ms - startup);
        return {
          value: file.bytes / MB / (beyond / 1000),
          details: { ms, startupMs: startup, bytes: file.bytes },
        };
      },
    }));
    return {
      info: { events, foos, MB: (files[0][1].bytes / MB).toFixed(0) },
      baseline: {
        name: "start-up (stats --help)",
        unit: "ms",
        run: () => {
          startup = loopscope(["stats", "--help"]);
          return { value: startup };
        },
      },
      cases,
    };
  },
};

export default bench;
