/**
 * `pnpm gen --events N [--format jsonl|klog] [--shape S] [-o FILE] [--foos N] [--workers N] [--seed N]`
 *
 * Writes a synthetic trace (scripts/gen/scenario.ts: N Foos × passes with self-triggered,
 * conflict and retry passes) as loopscope JSONL or as a controller's klog output, in one of the
 * log shapes of scripts/gen/shapes.ts (--shape, default canonical). Streams:
 * memory stays flat at 5M events. Without -o it writes to stdout. Prints counts to stderr.
 */
import { createWriteStream } from "node:fs";
import { parseArgs } from "node:util";
import { writeTrace, type GenFormat } from "./write.ts";
import { LOG_SHAPES, type LogShape } from "./shapes.ts";

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        events: { type: "string" },
        format: { type: "string", default: "jsonl" },
        shape: { type: "string", default: "canonical" },
        out: { type: "string", short: "o" },
        foos: { type: "string" },
        workers: { type: "string" },
        seed: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    process.stderr.write(`gen: ${(e as Error).message}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(
      `usage: pnpm gen --events N [--format jsonl|klog] [--shape ${LOG_SHAPES.join("|")}] [-o FILE] [--foos N] [--workers N] [--seed N]\n`,
    );
    return 0;
  }
  const int = (name: string, v: string | undefined, min: number): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v.replace(/_/g, ""));
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be an integer ≥ ${min} (got ${v})`);
    return n;
  };
  let events, foos, workers, seed;
  try {
    events = int("events", values.events, 1);
    foos = int("foos", values.foos, 1);
    workers = int("workers", values.workers, 1);
    seed = int("seed", values.seed, 0);
    if (events === undefined) throw new Error("--events is required");
    if (values.format !== "jsonl" && values.format !== "klog")
      throw new Error(`--format must be jsonl or klog (got ${values.format})`);
    if (!(LOG_SHAPES as readonly string[]).includes(values.shape))
      throw new Error(`--shape must be one of ${LOG_SHAPES.join(", ")} (got ${values.shape})`);
  } catch (e) {
    process.stderr.write(`gen: ${(e as Error).message}\n`);
    return 2;
  }
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  const t0 = performance.now();
  const r = await writeTrace(
    out,
    { events, foos, workers, seed },
    values.format as GenFormat,
    values.shape as LogShape,
  );
  if (values.out)
    await new Promise<void>((res, rej) =>
      (out as ReturnType<typeof createWriteStream>).end((e?: Error | null) => (e ? rej(e) : res())),
    );
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  process.stderr.write(
    `gen: ${r.counts.events} events, ${r.counts.foos} foos, ${r.counts.passes} passes (${r.counts.self} self-triggered, ${r.counts.conflicts} conflicts, ${r.counts.retries} retries), ${(r.bytes / 1e6).toFixed(1)} MB ${values.format} in ${s} s${values.out ? ` → ${values.out}` : ""}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`gen: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
