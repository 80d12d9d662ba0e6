/**
 * Runs benches: setup once, then the baseline and each case interleaved for `runs` rounds (one
 * warm-up round first, not recorded), then teardown. Returns rows for the table and the JSON.
 */
import type { Bench, BenchContext } from "./types.ts";
import { summarize, type Summary } from "./stats.ts";
import type { Row } from "./table.ts";

export const MIN_RUNS = 5;
export const SMOKE_RUNS = 2;

export interface BenchResult {
  name: string;
  description: string;
  unit: string;
  better: "higher" | "lower";
  info: Record<string, string | number>;
  /** The bench's own summary of its cases (BenchSetup.report). */
  report?: string;
  cases: {
    name: string;
    baseline: boolean;
    /** Set when the case's unit differs from the bench's. */
    unit?: string;
    summary: Summary;
    ratio?: number;
    details?: Record<string, number>;
  }[];
}

export async function runBench(
  name: string,
  bench: Bench,
  ctx: BenchContext,
  runsWanted?: number,
): Promise<BenchResult> {
  const setup = await bench.setup(ctx);
  const all = [setup.baseline, ...setup.cases];
  // Smoke proves the bench runs and yields numbers (it is in `pnpm test`): 2 runs, no warm-up.
  const runs = ctx.smoke
    ? (runsWanted ?? bench.smokeRuns ?? SMOKE_RUNS)
    : Math.max(MIN_RUNS, runsWanted ?? bench.runs ?? MIN_RUNS);
  const values: number[][] = all.map(() => []);
  let report: string | undefined;
  const details: (Record<string, number> | undefined)[] = all.map(() => undefined);
  try {
    if (!ctx.smoke) for (const c of all) await c.run(); // warm-up: JIT, page cache
    for (let round = 0; round < runs; round++) {
      for (let i = 0; i < all.length; i++) {
        const m = await all[i].run();
        // A bench that yields no number is broken, whatever else it did: smoke runs catch that.
        if (!Number.isFinite(m.value))
          throw new Error(`${all[i].name}: round ${round + 1} measured ${m.value}`);
        values[i].push(m.value);
        details[i] = m.details;
      }
      ctx.log(`${name}: round ${round + 1}/${runs}`);
    }
    report = setup.report?.();
  } finally {
    await setup.teardown?.();
  }
  const base = summarize(values[0]);
  return {
    name,
    description: bench.description,
    unit: bench.unit,
    better: bench.better,
    info: setup.info ?? {},
    ...(report !== undefined ? { report } : {}),
    cases: all.map((c, i) => {
      const summary = i === 0 ? base : summarize(values[i]);
      const comparable = c.unit === undefined || c.unit === (setup.baseline.unit ?? bench.unit);
      return {
        name: c.name,
        baseline: i === 0,
        ...(c.unit !== undefined ? { unit: c.unit } : {}),
        summary,
        ...(i === 0 || !comparable ? {} : { ratio: summary.median / base.median }),
        ...(details[i] ? { details: details[i] } : {}),
      };
    }),
  };
}

export function rowsOf(r: BenchResult): Row[] {
  return r.cases.map((c) => ({
    bench: r.name,
    case: c.name,
    unit: c.unit ?? r.unit,
    summary: c.summary,
    baseline: c.baseline,
    ...(c.ratio !== undefined ? { ratio: c.ratio } : {}),
  }));
}
