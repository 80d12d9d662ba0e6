/**
 * The bench interface. A bench is a module `scripts/bench/<name>.ts` whose default export is a
 * `Bench`; `pnpm bench [name…] [--smoke]` finds it by file name, runs `setup` once, then times
 * the baseline and every case in turn (interleaved, so machine noise hits them alike) at least
 * `runs` times, and prints each case beside the baseline with the ratio of medians.
 *
 * Write a bench so that `--smoke` finishes in a second or two (it runs in `pnpm test`) and a full
 * run says something true about speed. Put generated inputs under `ctx.tmpDir`.
 */
export interface BenchContext {
  /** Tiny inputs and 2 runs, no warm-up: proves the bench works, measures nothing worth quoting. */
  smoke: boolean;
  /** `--events N`: input size for benches that take a generated trace (else their default). */
  events?: number;
  /** Scratch directory for generated inputs (.bench/tmp); reused across invocations. */
  tmpDir: string;
  /** Progress for the person waiting (stderr). */
  log(message: string): void;
}

export interface Measurement {
  /** The number compared across cases, in the bench's unit. */
  value: number;
  /** Other numbers worth keeping in results.json (events, bytes, …). */
  details?: Record<string, number>;
}

export interface BenchCase {
  name: string;
  /** When this case measures something else than the bench's unit (then no ratio is shown). */
  unit?: string;
  /** One timed run. Do the timing yourself (performance.now) around exactly what is measured. */
  run(): Promise<Measurement> | Measurement;
}

export interface BenchSetup {
  /** What the cases are compared with, run in the same invocation (e.g. `grep -c` on the same file). */
  baseline: BenchCase;
  cases: BenchCase[];
  /** Facts about the input (size, line counts) printed and saved with the results. */
  info?: Record<string, string | number>;
  /** Printed under the table once every round ran: what the cases say together (a matrix). */
  report?(): string;
  teardown?(): Promise<void> | void;
}

export interface Bench {
  /** Defaults to the file name. */
  name?: string;
  description: string;
  /** e.g. "MB/s", "ms", "events/s", "bytes". */
  unit: string;
  /** "higher" for throughputs, "lower" for latencies and sizes. */
  better: "higher" | "lower";
  /** Timed runs per case (at least 5 are always made). */
  runs?: number;
  /** Timed runs per case under --smoke (default 2; cheap benches can afford the full 5). */
  smokeRuns?: number;
  setup(ctx: BenchContext): Promise<BenchSetup> | BenchSetup;
}
