/**
 * pan: frame times while a script pans (drag) and zooms (wheel) the timeline for 10 s with a
 * generated trace loaded (default view: the first Foo's lanes, the overview of all events).
 * Value: p95 of requestAnimationFrame deltas. Baseline: the same page idle (the frame floor).
 * Goal at 1M events: p95 ≤ 16.7 ms, in folded time (the dashboard's default); linear time is a
 * side row (each case switches the axis first, untimed). Full: 1M events, 10 s; --smoke: 10k, 1 s.
 * A last case pans a hot loop: one Foo of 30k events (~4,500 passes, a pixel's worth each when
 * zoomed out), the shape users open the tool to look at, where painting per pass or per event
 * shows (--smoke: 2k events).
 */
import type { Page } from "playwright-core";
import { acquireBrowser, quantile } from "./lib/browser.ts";
import { genFile } from "./lib/gen-input.ts";
import type { Bench, Measurement } from "./lib/types.ts";
import { useTime, type Time } from "./lib/time-mode.ts";

type BenchWindow = { __bench: { startFrames(): void; stopFrames(): number[] } };

async function frames(
  page: Page,
  seconds: number,
  act: (until: number) => Promise<void>,
): Promise<Measurement> {
  await page.evaluate(() => (window as unknown as BenchWindow).__bench.startFrames());
  await act(performance.now() + seconds * 1000);
  const d = await page.evaluate(() => (window as unknown as BenchWindow).__bench.stopFrames());
  if (d.length < 2) throw new Error(`only ${d.length} frames recorded`);
  return {
    value: quantile(d, 0.95),
    details: { frames: d.length, p50: quantile(d, 0.5), max: Math.max(...d) },
  };
}

const bench: Bench = {
  description: "scripted pan + zoom with the trace loaded: p95 frame time (goal ≤ 16.7 ms at 1M)",
  unit: "ms",
  better: "lower",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
    const seconds = ctx.smoke ? 1 : 10;
    const hotEvents = ctx.smoke ? 2_000 : 30_000;
    const file = await genFile(ctx.tmpDir, events, "jsonl");
    const hotFile = await genFile(ctx.tmpDir, hotEvents, "jsonl", { foos: 1 });
    const b = await acquireBrowser(ctx.tmpDir);
    const p = { page: await b.loadedPage(file.path) };
    const panAndZoom = (page: Page) => async (until: number) => {
      const box = (await page.getByTestId("timeline").boundingBox())!;
      const cx = box.x + box.width / 2;
      const cy = box.y + Math.min(box.height / 2, 120);
      const mouse = page.mouse;
      for (let i = 0; performance.now() < until; i++) {
        await mouse.move(cx, cy);
        for (let k = 0; k < 3; k++) await mouse.wheel(0, i % 2 ? 240 : -240);
        await mouse.down();
        const dir = i % 2 ? -1 : 1;
        for (let s = 1; s <= 10; s++) await mouse.move(cx + dir * s * 25, cy);
        await mouse.up();
      }
    };
    return {
      info: { events, hotEvents, seconds, viewport: "1920×1080" },
      baseline: {
        name: "idle page, trace loaded",
        run: () =>
          frames(
            p.page,
            Math.min(seconds, 2),
            (until) => new Promise((r) => setTimeout(r, until - performance.now())),
          ),
      },
      cases: [
        ...(["folded", "linear"] as Time[]).map((time) => ({
          name: `pan + zoom ${seconds} s${time === "linear" ? " (linear time)" : ""}`,
          run: async () => {
            await useTime(p.page, time);
            return frames(p.page, seconds, panAndZoom(p.page));
          },
        })),
        {
          name: `hot loop (one Foo, ${hotEvents} events): pan + zoom ${seconds} s`,
          run: async () => {
            const page = await b.loadedPage(hotFile.path);
            await useTime(page, "folded");
            return frames(page, seconds, panAndZoom(page));
          },
        },
      ],
      teardown: () => b.release(),
    };
  },
};

export default bench;
