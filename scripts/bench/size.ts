/**
 * size: bytes per event of a saved trace — loopscope JSONL and the Go controller's klog, plain
 * and gzip (level 6, what `gzip` and the server's recordings use). Baseline: plain JSONL.
 * Goal: gzip JSONL ≤ 40 B/event. Full: 1M events; --smoke: 10k.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import { createGzip } from "node:zlib";
import { genFile, type GenFile } from "./lib/gen-input.ts";
import type { Bench, Measurement } from "./lib/types.ts";

async function gzipBytes(path: string): Promise<{ bytes: number; ms: number }> {
  let bytes = 0;
  const t0 = performance.now();
  await pipeline(
    createReadStream(path, { highWaterMark: 1 << 20 }),
    createGzip({ level: 6 }),
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb();
      },
    }),
  );
  return { bytes, ms: performance.now() - t0 };
}

const bench: Bench = {
  description: "trace bytes per event on disk, plain and gzip (goal: gzip JSONL ≤ 40 B/event)",
  unit: "B/event",
  better: "lower",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 10_000 : 1_000_000);
    const dir = ctx.tmpDir;
    ctx.log(`generating ${events} events as JSONL and klog (cached in ${dir})`);
    const jsonl = await genFile(dir, events, "jsonl");
    const klog = await genFile(dir, events, "klog");
    const plain = (f: GenFile): Measurement => ({
      value: f.bytes / f.events,
      details: { bytes: f.bytes },
    });
    const gz = async (f: GenFile): Promise<Measurement> => {
      const r = await gzipBytes(f.path);
      return { value: r.bytes / f.events, details: { bytes: r.bytes, ms: r.ms } };
    };
    // A real recording (small, so gzip has less repetition to feed on): the honest upper bound.
    const samplePath = fileURLToPath(
      new URL("../../public/traces/create-foo.jsonl", import.meta.url),
    );
    const sample: GenFile = {
      path: samplePath,
      bytes: statSync(samplePath).size,
      events: readFileSync(samplePath, "utf8").trim().split("\n").length - 1,
    };
    return {
      info: {
        events,
        jsonlMB: (jsonl.bytes / 1e6).toFixed(1),
        klogMB: (klog.bytes / 1e6).toFixed(1),
      },
      baseline: { name: "JSONL plain", run: () => plain(jsonl) },
      cases: [
        { name: "JSONL gzip", run: () => gz(jsonl) },
        { name: "klog plain", run: () => plain(klog) },
        { name: "klog gzip", run: () => gz(klog) },
        { name: `recorded create-foo.jsonl gzip (${sample.events} events)`, run: () => gz(sample) },
      ],
    };
  },
};

export default bench;
