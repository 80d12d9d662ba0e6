/**
 * memory: main-thread memory the web app keeps per event after loading a generated trace: JS heap
 * plus ArrayBuffer backing stores (CDP Runtime.getHeapUsage usedSize + backingStorageSize after
 * HeapProfiler.collectGarbage, minus the same page before the drop, ÷ events), for the trace as
 * JSONL and as klog text. Baseline: the JSONL lines kept as parsed JS objects (what a naive viewer
 * holds). Goal at 1M events: ≤ 150 B/event. Full: 1M; --smoke: 2k.
 */
import {
  acquireBrowser,
  dropAndLoad,
  heapAfterGc,
  pageHoldingFile,
  type PageBench,
} from "./lib/browser.ts";
import { genFile } from "./lib/gen-input.ts";
import type { Bench } from "./lib/types.ts";

const bench: Bench = {
  description:
    "browser memory (JS heap + ArrayBuffers) per event after loading (goal ≤ 150 B/event at 1M)",
  unit: "B/event",
  better: "lower",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
    const file = await genFile(ctx.tmpDir, events, "jsonl");
    const klog = await genFile(ctx.tmpDir, events, "klog");
    const b = await acquireBrowser(ctx.tmpDir);
    const afterLoad = async (path: string) => {
      const p = await b.newPage();
      try {
        await p.page.goto(b.url);
        const before = await heapAfterGc(p.cdp);
        await dropAndLoad(p.page, path);
        const after = await heapAfterGc(p.cdp);
        return { value: (after - before) / events, details: { heapBytes: after - before } };
      } finally {
        await p.close();
      }
    };
    return {
      info: { events, MB: (file.bytes / 1e6).toFixed(1) },
      baseline: {
        name: "lines kept as JSON.parse objects",
        async run() {
          const p = await pageHoldingFile(b, file.path);
          const input = p.input;
          try {
            const before = await heapAfterGc(p.cdp);
            // Read in slices (see textSlices): File.text() of a 5M-event file gave back "", which
            // measured as 0.0015 B/event.
            const kept = await input.evaluate(async (el: HTMLInputElement) => {
              const bench = (window as unknown as { __bench: PageBench }).__bench;
              const lines: unknown[] = [];
              let rest = "";
              for await (const text of bench.textSlices(el.files![0])) {
                const parts = (rest + text).split("\n");
                rest = parts.pop()!;
                for (const l of parts) if (l.length > 0) lines.push(JSON.parse(l) as unknown);
              }
              if (rest.length > 0) lines.push(JSON.parse(rest) as unknown);
              lines.shift(); // the header
              (globalThis as unknown as { kept: unknown[] }).kept = lines;
              return lines.length;
            });
            if (kept !== events)
              throw new Error(`baseline kept ${kept} records, expected ${events}`);
            const after = await heapAfterGc(p.cdp);
            return { value: (after - before) / events, details: { heapBytes: after - before } };
          } finally {
            await p.close();
          }
        },
      },
      cases: [
        { name: "web app after load", run: () => afterLoad(file.path) },
        // The same events as klog text: their log lines stay in the file (read back when shown).
        { name: "web app after load, as klog", run: () => afterLoad(klog.path) },
      ],
      teardown: () => b.release(),
    };
  },
};

export default bench;
