/**
 * export: `loopscope convert`'s pipeline — a klog log read, analyzed and written as Chrome trace
 * JSON or OTLP/JSON, streaming, to a file — next to reading and analyzing alone (the floor).
 * Full run: 1M STAGE lines (~190 MB of klog); --smoke: 10k. Also records the heap left in use
 * at the end, which stays proportional to the passes, not the events.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import {
  Analyzer,
  ChromeTraceWriter,
  ExportPipeline,
  OtlpTraceWriter,
  TraceReader,
  type TraceEvent,
} from "../../packages/trace/src/index.ts";
import type { Bench, Measurement } from "./lib/types.ts";
import { synthKlog } from "./lib/klog-synth.ts";

const MB = 1e6;

async function convert(
  input: string,
  out: string | undefined,
  to: "chrome" | "otlp" | "none",
): Promise<{ events: number; outBytes: number }> {
  const reader = new TraceReader({ year: 2026 });
  const stream = out ? createWriteStream(out) : undefined;
  let parts: string[] = [];
  let outBytes = 0;
  const write = (c: string) => {
    parts.push(c);
    outBytes += c.length;
  };
  const analyzer = new Analyzer();
  const pipe =
    to === "none"
      ? undefined
      : new ExportPipeline(
          to === "chrome" ? new ChromeTraceWriter(write) : new OtlpTraceWriter(write),
        );
  let events = 0;
  const take = (batch: TraceEvent[]) => {
    events += batch.length;
    if (pipe) for (const e of batch) pipe.push(e);
    else for (const e of batch) analyzer.push(e);
  };
  const flush = async () => {
    if (!stream || parts.length === 0) return;
    const text = parts.join("");
    parts = [];
    if (!stream.write(text)) await once(stream, "drain");
  };
  for await (const chunk of createReadStream(input, { highWaterMark: 1 << 20 })) {
    take(reader.push(chunk as Buffer));
    await flush();
  }
  take(reader.end());
  pipe?.end();
  await flush();
  if (stream) await new Promise<void>((r) => stream.end(r));
  return { events, outBytes };
}

const bench: Bench = {
  description:
    "klog → Chrome trace JSON / OTLP spans, streamed to a file (input MB/s), vs read + analyze",
  unit: "MB/s",
  better: "higher",
  setup(ctx) {
    const stageLines = ctx.smoke ? 10_000 : 1_000_000;
    ctx.log(`generating a klog file with ${stageLines} STAGE lines (cached in ${ctx.tmpDir})`);
    const file = synthKlog(ctx.tmpDir, stageLines);
    const timed = async (to: "chrome" | "otlp" | "none"): Promise<Measurement> => {
      const out = to === "none" ? undefined : join(ctx.tmpDir, `export.${to}.json`);
      const t0 = performance.now();
      const r = await convert(file.path, out, to);
      const ms = performance.now() - t0;
      if (r.events < file.stageLines)
        throw new Error(`read ${r.events} events, expected ≥ ${file.stageLines}`);
      return {
        value: file.bytes / MB / (ms / 1000),
        details: {
          ms,
          events: r.events,
          outMB: r.outBytes / MB,
          heapMB: process.memoryUsage().heapUsed / MB,
        },
      };
    };
    return {
      info: { file: file.path, MB: (file.bytes / MB).toFixed(1), stageLines: file.stageLines },
      baseline: { name: "read + analyze", run: () => timed("none") },
      cases: [
        { name: "→ chrome JSON", run: () => timed("chrome") },
        { name: "→ OTLP/JSON", run: () => timed("otlp") },
      ],
    };
  },
};

export default bench;
