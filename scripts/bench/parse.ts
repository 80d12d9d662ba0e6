/**
 * parse: how fast a klog log becomes events and analysis, next to `grep -c STAGE/` on the same
 * file (the floor: reading the bytes and finding the tag). Full run: ≥ 1M STAGE lines among
 * noise (~190 MB); --smoke: 10k.
 */
import { spawnSync } from "node:child_process";
// Relative: scripts/ is not a workspace package, so it cannot resolve @loopscope/*.
import { Analyzer, TraceReader, type TraceEvent } from "../../packages/trace/src/index.ts";
import { decodeUtf8 } from "../../apps/server/src/cli/utf8.ts";
import { openTraceInput } from "../../apps/server/src/cli/input.ts";
import type { Bench, Measurement } from "./lib/types.ts";
import { synthKlog } from "./lib/klog-synth.ts";

const MB = 1e6;

async function readAll(path: string, analyze: boolean): Promise<{ events: number; keys: number }> {
  const reader = new TraceReader({ year: 2026, decode: decodeUtf8 });
  const analyzer = new Analyzer();
  let events = 0;
  const sink = analyze
    ? (e: TraceEvent) => {
        events++;
        analyzer.push(e);
      }
    : () => {
        events++;
      };
  // The CLI's own input (stats, excerpt): a plain file read into one reused buffer.
  for await (const chunk of (await openTraceInput(path)).chunks) reader.push(chunk, sink);
  reader.end(sink);
  return { events, keys: analyzer.keys().length };
}

const bench: Bench = {
  description: "klog text → events (+ incremental analysis), MB/s, vs grep -c STAGE/",
  unit: "MB/s",
  better: "higher",
  smokeRuns: 5,
  setup(ctx) {
    const stageLines = ctx.events ?? (ctx.smoke ? 10_000 : 1_000_000);
    ctx.log(`generating a klog file with ${stageLines} STAGE lines (cached in ${ctx.tmpDir})`);
    const file = synthKlog(ctx.tmpDir, stageLines);
    const rate = (ms: number): number => file.bytes / MB / (ms / 1000);
    const timed = async (analyze: boolean): Promise<Measurement> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await readAll(file.path, analyze);
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (r.events < file.stageLines) {
        throw new Error(`read ${r.events} events, expected ≥ ${file.stageLines}`);
      }
      // CPU time too: on a shared machine wall time mostly measures the neighbours.
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const cpuMBps = file.bytes / MB / (cpuMs / 1000);
      return { value: rate(ms), details: { ms, cpuMs, cpuMBps, events: r.events, keys: r.keys } };
    };
    return {
      info: {
        file: file.path,
        MB: (file.bytes / MB).toFixed(1),
        lines: file.lines,
        stageLines: file.stageLines,
      },
      baseline: {
        name: "grep -c STAGE/",
        run() {
          const t0 = performance.now();
          const g = spawnSync("grep", ["-c", "STAGE/", file.path], { encoding: "utf8" });
          const ms = performance.now() - t0;
          if (g.status !== 0) throw new Error(`grep failed: ${g.stderr}`);
          return { value: rate(ms), details: { ms, matches: Number(g.stdout.trim()) } };
        },
      },
      cases: [
        { name: "read + analyze", run: () => timed(true) },
        { name: "read only", run: () => timed(false) },
      ],
    };
  },
};

export default bench;
