/**
 * Two builds of the web app, one file dropped on each in turn: on a shared machine whose speed
 * drifts within minutes, a change to the load path shows only side by side. Each load runs in a
 * fresh process and browser; the pairs alternate which build goes first. Prints, per load, drop →
 * interactive, the page's CPU time and its page faults (thread-cpu.ts), then the medians.
 *
 *   (cd apps/web && pnpm exec vite build --outDir /tmp/dist-a)   # the build before the change
 *   (cd apps/web && pnpm exec vite build --outDir /tmp/dist-b)   # and after
 *   pnpm exec tsx scripts/bench/lib/ab-load.ts /tmp/dist-a /tmp/dist-b .bench/tmp/gen-v2-1000000.log 5
 */
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.ts";

interface Load {
  interactive: number;
  cpuMs: number;
  faults: number;
}

const [distA, distB, file, pairsArg, once] = process.argv.slice(2);

async function loadOnce(path: string): Promise<void> {
  // Imported here: browser.ts reads LOOPSCOPE_BENCH_DIST when it loads.
  const { acquireBrowser, dropAndLoad } = await import("./browser.ts");
  const { countThreadCpu } = await import("./thread-cpu.ts");
  const b = await acquireBrowser(dirname(resolve(path)));
  const p = await b.newPage();
  await p.page.goto(b.url);
  const counting = countThreadCpu();
  const { interactive } = await dropAndLoad(p.page, path);
  const cpu = counting.stop();
  await p.close();
  await b.release();
  const load: Load = { interactive, cpuMs: cpu?.total ?? NaN, faults: cpu?.faults ?? NaN };
  process.stdout.write(JSON.stringify(load) + "\n");
}

function spawnLoad(dist: string): Load {
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", fileURLToPath(import.meta.url), dist, dist, file!, "1", "--once"],
    { env: { ...process.env, LOOPSCOPE_BENCH_DIST: resolve(dist) }, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`a load with ${dist} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Load;
}

if (!distA || !distB || !file) {
  throw new Error("usage: tsx scripts/bench/lib/ab-load.ts DIST_A DIST_B TRACE_FILE [PAIRS]");
}
if (once === "--once") {
  await loadOnce(file);
} else {
  const pairs = Number(pairsArg ?? 3);
  const runs: Record<"a" | "b", Load[]> = { a: [], b: [] };
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const);
    for (const v of order) {
      const l = spawnLoad(v === "a" ? distA : distB);
      runs[v].push(l);
      console.log(
        `${v}  interactive ${l.interactive.toFixed(0)} ms  CPU ${l.cpuMs.toFixed(0)} ms  faults ${l.faults}`,
      );
    }
  }
  for (const v of ["a", "b"] as const) {
    const m = (k: keyof Load) => median(runs[v].map((l) => l[k])).toFixed(0);
    console.log(
      `${v} medians (${pairs}): interactive ${m("interactive")} ms, CPU ${m("cpuMs")} ms, faults ${m("faults")}`,
    );
  }
}
