/**
 * The bad-input corpus through the real CLI: `loopscope stats FILE --json` in a child process
 * (under /usr/bin/time for its peak memory) for a representative subset of the corpus, plus a
 * gzip bomb. Every run must end (no hang: a timeout kills it), exit 0 with every good line kept
 * and every bad line diagnosed — NUL bytes included: a log written across a crash holds a run of
 * them — and stay under a memory bound.
 *
 * The whole corpus goes through the reader in process (packages/trace/src/robustness); spawning
 * costs 2–4 s each on a busy machine, so only a representative few run here, two at a time.
 * LOOPSCOPE_SOAK=1 runs every case through the CLI.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badInputCorpus } from "../../../../packages/trace/src/robustness/corpus.ts";
import { checkCase } from "../../../../packages/trace/src/robustness/check-case.ts";
import type { StatsJson } from "../commands/stats.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSX = join(ROOT, "node_modules/.bin/tsx");
/** Peak RSS allowed for one `stats` run, whatever the input (tsx itself takes ~150 MB). */
const MEMORY_BOUND_MB = 450;
const SOAK = process.env.LOOPSCOPE_SOAK === "1";
/** One case for each way the CLI's path differs from the in-process reader's. */
const REPRESENTATIVE = [
  "nul-bytes", // NUL bytes between good lines: read on, not refused as binary
  "klog-nul-run", // a klog log written across a crash
  "long-line", // 50 MB through 1 MB chunks
  "utf8-outside-strings", // Buffer-based UTF-8 decoding (cli/utf8.ts)
  "ten-thousand-bad-lines", // the capped diagnostics list in --json
];

interface Run {
  code: number | null;
  out: string;
  err: string;
  peakMb: number;
}

function stats(file: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      "/usr/bin/time",
      [
        "-f",
        "PEAK_KB=%M",
        TSX,
        "apps/server/src/main.ts",
        "stats",
        file,
        "--json",
        "--year",
        "2026",
      ],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
    // A hang is a failure: kill it well inside the test's own timeout.
    const timer = setTimeout(() => child.kill("SIGKILL"), 100_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const peak = /PEAK_KB=(\d+)/.exec(err);
      resolve({
        code,
        out,
        err: err.replace(/PEAK_KB=\d+\n?/, ""),
        peakMb: peak ? Number(peak[1]) / 1024 : Infinity,
      });
    });
  });
}

async function inPairs<T, R>(items: T[], f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-badcli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("bad input through `loopscope stats`", { timeout: 240_000 }, () => {
  it("representative files: no crash, no hang, bounded memory, good lines kept, bad lines numbered", async () => {
    const corpus = badInputCorpus();
    const chosen = SOAK ? corpus : corpus.filter((c) => REPRESENTATIVE.includes(c.name));
    const unique = [...new Set(chosen)];
    const runs = await inPairs(unique, async (c) => {
      const file = join(dir, `${c.name}.trace`);
      await writeFile(file, c.bytes);
      return { c, run: await stats(file) };
    });
    const failures: string[] = [];
    let peak = 0;
    for (const { c, run } of runs) {
      peak = Math.max(peak, run.peakMb);
      if (run.peakMb > MEMORY_BOUND_MB) failures.push(`${c.name}: peak ${run.peakMb} MB`);
      if (run.code !== 0) {
        failures.push(`${c.name}: exit ${run.code}: ${run.err.slice(0, 300)}`);
        continue;
      }
      const json = JSON.parse(run.out) as StatsJson;
      const keys = Object.keys(json.keys);
      // stats lists the first 1000 problems and then "… and N more problems".
      const more = /^… and (\d+) more/.exec(json.diagnostics.at(-1)?.message ?? "");
      const diagnostics = more ? json.diagnostics.slice(0, -1) : json.diagnostics;
      const problems = checkCase(c, {
        keys,
        diagnostics,
        diagnosticCount: diagnostics.length + (more ? Number(more[1]) : 0),
        lines: json.lines,
      });
      if (problems.length > 0)
        failures.push(`${c.name}: ${problems.length} problems, first: ${problems[0]}`);
    }
    console.log(
      `stats CLI on ${runs.length} corpus files: ${runs.length - failures.length} kept the contract, peak RSS ${peak.toFixed(0)} MB`,
    );
    expect(failures).toEqual([]);
  });

  it("a gzip bomb (320 MB of one line in < 1 MB) is read in bounded memory, good lines kept", async () => {
    const file = join(dir, "bomb.jsonl.gz");
    const gz = createGzip({ level: 1 });
    const done = pipeline(gz, createWriteStream(file));
    const good = (n: number) =>
      JSON.stringify({ ts: 1, key: `good/l${n}`, stage: "dequeue" }) + "\n";
    gz.write('{"loopscope":"trace","version":1}\n' + good(2));
    const block = Buffer.alloc(1 << 20, "a");
    for (let i = 0; i < 320; i++) {
      if (!gz.write(block)) await new Promise((r) => gz.once("drain", r));
    }
    gz.end("\n" + good(4));
    await done;
    const run = await stats(file);
    expect(run.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    expect(run.code, run.err).toBe(0);
    const json = JSON.parse(run.out) as StatsJson;
    expect(Object.keys(json.keys).sort()).toEqual(["good/l2", "good/l4"]);
    expect(json.diagnostics.map((d) => d.line)).toContain(3);
    console.log(`gzip bomb: peak RSS ${run.peakMb.toFixed(0)} MB, ${json.lines} lines`);
    expect(run.peakMb).toBeLessThan(MEMORY_BOUND_MB);
  });
});
