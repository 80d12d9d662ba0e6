/**
 * click: pointer down on a mark of the timeline → the frame after the details panel changed,
 * with a generated trace loaded. Marks are found by reading the canvas pixels (anything that is
 * not background in the lanes), and two of them are clicked in turn so each click changes the
 * panel. Baseline: pointer down on an inert spot (the header) → next frame: the input floor.
 * Goal at 1M events: ≤ 50 ms, in folded time (the dashboard's default); linear time is a side row
 * (each case switches the axis first, untimed). Full: 1M events; --smoke: 10k.
 */
import type { Page } from "playwright-core";
import { acquireBrowser, dropAndLoad } from "./lib/browser.ts";
import { genFile } from "./lib/gen-input.ts";
import type { Bench } from "./lib/types.ts";
import { useTime, type Time } from "./lib/time-mode.ts";

type ClickWindow = { __click?: Promise<number> };

/** Arms the page: resolves with (frame after `details` changes, or after the next frame) − pointerdown. */
async function arm(page: Page, waitForDetails: boolean): Promise<void> {
  await page.evaluate((waitForDetails) => {
    const w = window as unknown as ClickWindow;
    w.__click = new Promise<number>((resolve, reject) => {
      let down = NaN;
      const timer = setTimeout(() => reject(new Error("no change in the details panel")), 60_000);
      // The rAF callback of the frame that will paint the change (performance.now(), not the
      // frame's start time: the click may be handled inside that same frame).
      const frame = () =>
        requestAnimationFrame(() => {
          clearTimeout(timer);
          resolve(performance.now() - down);
        });
      addEventListener(
        "pointerdown",
        (e) => {
          down = e.timeStamp;
          if (!waitForDetails) return frame();
          // Watch only from the press on: hovering on the way there must not count.
          const panel = document.querySelector('[data-testid="details"]')!;
          const mo = new MutationObserver(() => {
            mo.disconnect();
            frame();
          });
          mo.observe(panel, {
            subtree: true,
            childList: true,
            characterData: true,
            attributes: true,
          });
        },
        { capture: true, once: true },
      );
    });
  }, waitForDetails);
}

async function timedClick(
  page: Page,
  x: number,
  y: number,
  waitForDetails: boolean,
): Promise<number> {
  await arm(page, waitForDetails);
  await page.mouse.click(x, y);
  return page.evaluate(() => (window as unknown as ClickWindow).__click!);
}

/** Page coordinates of non-background pixels in the timeline's lanes, spread across x. */
async function findMarks(page: Page): Promise<{ x: number; y: number }[]> {
  return page
    .getByTestId("timeline")
    .locator("canvas")
    .evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext("2d")!;
      const { width, height } = c;
      const img = ctx.getImageData(0, 0, width, height).data;
      const bg = img.slice(0, 3);
      const r = c.getBoundingClientRect();
      const sx = r.width / width;
      const sy = r.height / height;
      const out: { x: number; y: number }[] = [];
      // Below the axis row and the first header row (the lanes take their own height, so a share
      // of the canvas would land in the axis's labels).
      const top = Math.ceil(70 / sy);
      for (let y = top; y < height && out.length < 400; y += 3)
        for (let x = Math.floor(width * 0.15); x < width - 10; x += 7) {
          const i = (y * width + x) * 4;
          const d =
            Math.abs(img[i] - bg[0]) + Math.abs(img[i + 1] - bg[1]) + Math.abs(img[i + 2] - bg[2]);
          if (d > 120) out.push({ x: r.left + x * sx, y: r.top + y * sy });
        }
      return out;
    });
}

const bench: Bench = {
  description: "click a timeline mark → details panel shown (goal ≤ 50 ms at 1M)",
  unit: "ms",
  better: "lower",
  async setup(ctx) {
    const events = ctx.events ?? (ctx.smoke ? 2_000 : 1_000_000);
    const file = await genFile(ctx.tmpDir, events, "jsonl");
    const b = await acquireBrowser(ctx.tmpDir);
    // A page of its own: the shared loaded page is left panned and zoomed wherever `pan` ended,
    // often off every mark.
    const own = await b.newPage();
    await own.page.goto(b.url);
    await dropAndLoad(own.page, file.path);
    const p = { page: own.page };
    const details = p.page.getByTestId("details");
    // Keep two marks whose clicks give different details, so every timed click changes the panel
    // (per time axis: the marks are elsewhere in folded and in linear time).
    // What the panel shows, by its heading ("dequeue · seq 11"): the rest of it (the raw line)
    // may still be filling in at 1M events.
    const selected = async () =>
      (await details.count()) ? await details.locator("h3").first().innerText() : "";
    const targetsIn = async (time: Time) => {
      await useTime(p.page, time);
      const marks = await findMarks(p.page);
      const useful: { x: number; y: number; text: string }[] = [];
      const every = Math.max(1, Math.floor(marks.length / 40));
      for (const m of marks.filter((_, i) => i % every === 0)) {
        await p.page.mouse.click(m.x, m.y);
        // (Until something is selected the panel is its hint, without the test id.)
        const text = await selected();
        if (text && !useful.some((u) => u.text === text)) useful.push({ ...m, text });
        if (useful.length === 3) break;
      }
      if (useful.length < 3)
        throw new Error(
          `${time}: ${useful.length} clickable marks among ${marks.length} candidates`,
        );
      return useful.slice(1);
    };
    const targets = { folded: await targetsIn("folded"), linear: await targetsIn("linear") };
    const clickCase = (time: Time) => ({
      name: `click mark → details panel${time === "linear" ? " (linear time)" : ""}`,
      async run() {
        await useTime(p.page, time);
        // The target whose details are not the ones shown (the other case may have left the
        // same event selected), so the timed click changes the panel.
        const shown = await selected();
        const t = targets[time].find((c) => c.text !== shown) ?? targets[time][0];
        return { value: await timedClick(p.page, t.x, t.y, true) };
      },
    });
    const header = (await p.page.locator("header, .spacer").first().boundingBox())!;
    return {
      info: { events },
      baseline: {
        name: "pointer down on the header → next frame",
        run: async () => ({
          value: await timedClick(p.page, header.x + header.width / 2, header.y + 2, false),
        }),
      },
      cases: [clickCase("folded"), clickCase("linear")],
      teardown: async () => {
        await own.close();
        await b.release();
      },
    };
  },
};

export default bench;
