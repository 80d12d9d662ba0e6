/**
 * The load benches (load: loopscope JSONL; load-klog: the same events as klog text, what the Go
 * controller writes): a generated trace dropped on the built web app in headless Chromium — drop →
 * first timeline frame with events, and drop → interactive (everything in the store and the
 * analysis, next frame). Baseline: the floor for touching the same bytes in the page (File.text()
 * and counting lines on the main thread). Goal at 1M events: first paint ≤ 2 s, interactive ≤ 4 s.
 * Full: 1M events (JSONL ~167 MB, klog ~120 MB); --smoke: 2000.
 */
import type { GenFormat } from "../../gen/write.ts";
import {
  acquireBrowser,
  dropAndLoad,
  pageHoldingFile,
  type BrowserHandle,
  type PageBench,
} from "./browser.ts";
import { genFile } from "./gen-input.ts";
import { canCountThreadCpu, countThreadCpu, type ThreadCpu } from "./thread-cpu.ts";
import type { Bench, Measurement } from "./types.ts";

export function loadBench(format: GenFormat): Bench {
  return {
    description: `1M-event ${format === "jsonl" ? "JSONL" : "klog"} file dropped on the web app: → first paint, → interactive (goal ≤ 2 s, ≤ 4 s)`,
    unit: "ms",
    better: "lower",
    async setup(ctx) {
      const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
      const file = await genFile(ctx.tmpDir, events, format);
      const b: BrowserHandle = await acquireBrowser(ctx.tmpDir);
      let last: { firstPaint: number; interactive: number } | undefined;
      let cpu: ThreadCpu | undefined;
      return {
        info: { events, MB: (file.bytes / 1e6).toFixed(1) },
        baseline: {
          name: "File.text() + count lines in the page",
          async run() {
            const p = await pageHoldingFile(b, file.path);
            try {
              const r = await p.input.evaluate(async (el: HTMLInputElement) => {
                const count = (text: string) => {
                  let n = 0;
                  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
                  return n;
                };
                const file = el.files![0];
                const t0 = performance.now();
                let lines = count(await file.text());
                let sliced = false;
                // Past the longest string Chromium makes, text() gives "": then the same work on
                // 64 MB slices, said in `details`.
                if (lines === 0 && file.size > 1 << 28) {
                  sliced = true;
                  const bench = (window as unknown as { __bench: PageBench }).__bench;
                  for await (const text of bench.textSlices(file)) lines += count(text);
                }
                return { ms: lines > 0 ? performance.now() - t0 : NaN, lines, sliced };
              });
              return { value: r.ms, details: { lines: r.lines, sliced: r.sliced ? 1 : 0 } };
            } finally {
              await p.close();
            }
          },
        },
        cases: [
          {
            name: "drop → first paint",
            async run() {
              const p = await b.newPage();
              try {
                await p.page.goto(b.url);
                const counting = countThreadCpu();
                last = await dropAndLoad(p.page, file.path);
                cpu = counting.stop();
                return { value: last.firstPaint };
              } finally {
                await p.close();
              }
            },
          },
          { name: "drop → interactive", run: () => ({ value: last!.interactive }) },
          // What the load cost the machine (the page's renderer process, all its threads): the wall time
          // above is what it cost the person waiting.
          ...(canCountThreadCpu()
            ? [
                {
                  name: "page CPU, drop → interactive",
                  unit: "ms CPU",
                  run: () => cpuMeasurement(cpu),
                },
              ]
            : []),
        ],
        teardown: () => b.release(),
      };
    },
  };
}

/**
 * The page's renderer CPU during the last load, with the replay's workers, V8's background threads
 * (compiles, GC tasks) and the page's main thread apart in `details`.
 */
function cpuMeasurement(cpu: ThreadCpu | undefined): Measurement {
  if (cpu === undefined)
    throw new Error("the page's renderer (the process with its workers) was not found in /proc");
  const of = (name: string) => cpu.byName.get(name) ?? 0;
  return {
    value: cpu.total,
    details: {
      workersMs: of("DedicatedWorker"),
      threadPoolMs: of("ThreadPoolForeg"),
      mainThreadMs: of("chromium"),
      pageFaults: cpu.faults,
    },
  };
}
