/**
 * parse: how fast a trace becomes events and incremental analysis (what `loopscope stats` does),
 * over a matrix — the log shapes met in the wild (scripts/gen/shapes.ts, and the same events as
 * loopscope JSONL) × key counts — each cell next to `grep -c STAGE/` on its own file, timed in
 * the same round (the floor: reading the bytes and finding the tag). Full run: 1M events per cell
 * (`--events N`); --smoke: 2k. The matrix is printed under the table: MB/s (×grep) per cell.
 */
import { spawnSync } from "node:child_process";
// Relative: scripts/ is not a workspace package, so it cannot resolve @loopscope/*.
import { Analyzer, TraceReader, type TraceEvent } from "../../packages/trace/src/index.ts";
import { decodeUtf8 } from "../../apps/server/src/cli/utf8.ts";
import { openTraceInput } from "../../apps/server/src/cli/input.ts";
import { LOG_SHAPES, type LogShape } from "../gen/shapes.ts";
import type { BenchCase, Bench, Measurement } from "./lib/types.ts";
import { genFile, type GenFile } from "./lib/gen-input.ts";
import { median } from "./lib/stats.ts";

const MB = 1e6;
const SHAPES: readonly (LogShape | "jsonl")[] = [...LOG_SHAPES, "jsonl"];
const KEYS = [10, 2_000, 100_000];
/** Shapes whose lines are the canonical STAGE lines (docs/stages.md §4): the goal's cells. */
const CANONICAL: readonly string[] = ["canonical", "jsonl"];

const keysLabel = (k: number) => (k >= 1000 ? `${k / 1000}k` : String(k));

async function readAll(path: string): Promise<number> {
  const reader = new TraceReader({ year: 2026, decode: decodeUtf8 });
  const analyzer = new Analyzer();
  const sink = (e: TraceEvent) => analyzer.push(e);
  // The CLI's own input (stats, excerpt): a plain file read into one reused buffer.
  for await (const chunk of (await openTraceInput(path)).chunks) reader.push(chunk, sink);
  reader.end(sink);
  return reader.events;
}

/** `grep -c STAGE/` on `path`: its time (ms). */
function grep(path: string): number {
  const t0 = performance.now();
  const g = spawnSync("grep", ["-c", "STAGE/", path], { encoding: "utf8" });
  const ms = performance.now() - t0;
  // 1: no line matched (JSONL, an unpatched log) — grep read it all the same.
  if (g.status !== 0 && g.status !== 1) throw new Error(`grep failed: ${g.stderr}`);
  return ms;
}

interface Cell {
  shape: string;
  keys: number;
  file: GenFile;
  /** MB/s of each round: the reader and Analyzer, and grep on the same file. */
  rates: number[];
  grepRates: number[];
}

function cellCase(c: Cell): BenchCase {
  const rate = (ms: number) => c.file.bytes / MB / (ms / 1000);
  return {
    name: `${c.shape} × ${keysLabel(c.keys)} keys`,
    async run(): Promise<Measurement> {
      const grepMs = grep(c.file.path);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const events = await readAll(c.file.path);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (events === 0) throw new Error(`${c.file.path}: no events read`);
      c.rates.push(rate(ms));
      c.grepRates.push(rate(grepMs));
      // CPU time too: on a shared machine wall time mostly measures the neighbours.
      const cpuMs = (cpu.user + cpu.system) / 1000;
      return {
        value: rate(ms),
        details: { ms, cpuMs, grepMs, xGrep: grepMs / ms, events, bytes: c.file.bytes },
      };
    },
  };
}

/** The matrix: one row per shape, one column per key count, "MB/s (×grep)" from the medians. */
function matrix(cells: readonly Cell[]): string {
  const rows = SHAPES.map((shape) => [
    shape,
    ...KEYS.map((k) => {
      const c = cells.find((x) => x.shape === shape && x.keys === k)!;
      const mbps = median(c.rates);
      return `${mbps.toFixed(0)} MB/s (×${(mbps / median(c.grepRates)).toFixed(3)})`;
    }),
  ]);
  const head = ["read + analyze", ...KEYS.map((k) => `${keysLabel(k)} keys`)];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join("  ");
  const all = cells.map((c) => ({ c, mbps: median(c.rates) }));
  const best = all.reduce((a, b) => (b.mbps > a.mbps ? b : a));
  const worst = all.reduce((a, b) => (b.mbps < a.mbps ? b : a));
  const canonical = all.filter((x) => CANONICAL.includes(x.c.shape));
  const canonicalMin = Math.min(...canonical.map((x) => x.mbps));
  const name = (c: Cell) => `${c.shape} × ${keysLabel(c.keys)}`;
  return (
    [line(head), ...rows.map(line)].join("\n") +
    `\nbest ${best.mbps.toFixed(0)} MB/s (${name(best.c)}); lowest ${worst.mbps.toFixed(0)} MB/s ` +
    `(${name(worst.c)}), ×${(worst.mbps / best.mbps).toFixed(2)} of the best; ` +
    `canonical cells (${CANONICAL.join(", ")}) ≥ ${canonicalMin.toFixed(0)} MB/s\n`
  );
}

const bench: Bench = {
  description:
    "trace → events + incremental analysis, MB/s, per log shape × key count, vs grep -c STAGE/ on each file",
  unit: "MB/s",
  better: "higher",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
    ctx.log(
      `generating ${SHAPES.length} × ${KEYS.length} files of ${events} events (cached in ${ctx.tmpDir})`,
    );
    const cells: Cell[] = [];
    for (const shape of SHAPES) {
      for (const keys of KEYS) {
        const file = await genFile(ctx.tmpDir, events, shape === "jsonl" ? "jsonl" : "klog", {
          ...(shape === "jsonl" ? {} : { shape }),
          foos: keys,
        });
        cells.push({ shape, keys, file, rates: [], grepRates: [] });
      }
    }
    const base = cells.find((c) => c.shape === "canonical" && c.keys === 2_000)!;
    const MBs = cells.reduce((n, c) => n + c.file.bytes, 0) / MB;
    return {
      info: { eventsPerCell: events, cells: cells.length, MB: MBs.toFixed(0) },
      baseline: {
        name: "grep -c STAGE/ (canonical × 2k keys)",
        run: () => {
          const ms = grep(base.file.path);
          return { value: base.file.bytes / MB / (ms / 1000), details: { ms } };
        },
      },
      cases: cells.map(cellCase),
      report: () => matrix(cells),
    };
  },
};

export default bench;
