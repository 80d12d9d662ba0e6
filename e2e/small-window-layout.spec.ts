/**
 * The dashboard in a small window: 640×400 is a 1280×800 laptop at 200 % browser zoom (WCAG 1.4.4),
 * 320×640 the width WCAG 1.4.10 asks content to reflow to. Checked by the boxes laid out, replayed
 * and live: the lanes are as wide as the window and as tall as one Foo's five lanes need, nothing
 * is drawn over the panels or the bottom panel's tabs, the page does not scroll sideways, and every
 * playback control and tab, scrolled to, is on top (not covered). Screenshots go to test-results/.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { serveDist, type StaticSite } from "./dashboard-harness.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

const VIEWPORTS = [
  { width: 640, height: 400 },
  { width: 320, height: 640 },
] as const;

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

/** Boxes in page coordinates (not the viewport's: the page scrolls here). */
async function pageBox(page: Page, selector: string): Promise<Box> {
  return page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
    });
}

/** The timeline as tall as one Foo's five lanes need: none cut off. */
async function expectLanesWhole(page: Page, where: string) {
  const [height, needed] = await page
    .getByTestId("timeline")
    .evaluate((e) => [
      e.getBoundingClientRect().height,
      parseFloat(getComputedStyle(e).getPropertyValue("--timeline-needed")),
    ]);
  expect(height, `${where}: timeline height`).toBeGreaterThanOrEqual(needed - 0.5);
}

async function checkSmallWindow(page: Page, info: TestInfo, name: string) {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    const where = `${name} ${vp.width}×${vp.height}`;
    await expect(page.getByTestId("timeline-pass").first()).toBeAttached();
    await page.evaluate(
      () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))),
    );

    // The lanes get the window's width, and the page does not scroll sideways.
    const main = await pageBox(page, "main.center");
    expect(main.x, `${where}: lanes' left`).toBeGreaterThanOrEqual(0);
    expect(main.width, `${where}: lanes' width`).toBeGreaterThanOrEqual(vp.width * 0.9);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${where}: page width`,
    ).toBeLessThanOrEqual(vp.width);

    await expectLanesWhole(page, where);

    // Inside its column, over no panel and no other part of the column.
    const lanes = await pageBox(page, '[data-testid="timeline"] canvas');
    for (const other of [
      ".objects",
      ".details",
      ".bottom",
      '[role="tablist"]',
      '[aria-label="Playback"]',
      ".legend",
      ".overview",
    ])
      expect(intersects(lanes, await pageBox(page, other)), `${where}: lanes over ${other}`).toBe(
        false,
      );
    for (const part of await page.locator("main.center > *").all()) {
      const b = await part.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
      });
      expect(b.y + b.height, `${where}: a part of the lanes' column below it`).toBeLessThanOrEqual(
        main.y + main.height + 0.5,
      );
    }

    // Every control, scrolled to, is the element at its own middle.
    const controls = page.locator('[aria-label="Playback"] button, [role="tab"]');
    for (const control of await controls.all()) {
      await control.scrollIntoViewIfNeeded();
      const onTop = await control.evaluate((e) => {
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return hit !== null && e.contains(hit);
      });
      expect(onTop, `${where}: ${await control.textContent()} covered`).toBe(true);
    }
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({
      path: info.outputPath(`${name}-${vp.width}x${vp.height}.png`),
      fullPage: true,
    });
  }
}

test.describe.configure({ timeout: 180_000 });

test("replay in a small window: 200 % zoom and 320 px reflow", async ({ page }, info) => {
  const site: StaticSite = await serveDist();
  try {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${site.url}?trace=traces/create-foo.jsonl`);
    await expect(page.getByTestId("timeline-pass")).toHaveCount(8);
    await checkSmallWindow(page, info, "replay-create-foo");
  } finally {
    await site.close();
  }
});

test("live in a small window: 200 % zoom and 320 px reflow", async ({ page }, info) => {
  const server: LiveServer = await startUp();
  try {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(server.url);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
    // The cluster's actions are reachable in the small window too.
    await page.getByTestId("scenario").selectOption("create-foo");
    await page.getByTestId("action-scenario").click();
    await expect(page.getByTestId("action-result")).toContainText("scenario create-foo done", {
      timeout: 90_000,
    });
    await checkSmallWindow(page, info, "live-create-foo");
  } finally {
    await server.stop();
  }
});

test("the workshop open in a small window: the lanes scroll above its dock, over no panel", async ({
  page,
}, info) => {
  const site: StaticSite = await serveDist();
  try {
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${site.url}?trace=traces/hot-loop.jsonl`);
    await expect(page.getByTestId("timeline-pass").first()).toBeAttached();
    await page.getByTestId("workshop-toggle").click();
    await expect(page.getByTestId("workshop")).toBeVisible();
    for (const vp of [...VIEWPORTS, { width: 853, height: 480 }]) {
      await page.setViewportSize(vp);
      const where = `workshop ${vp.width}×${vp.height}`;
      await page.evaluate(
        () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))),
      );
      await expectLanesWhole(page, where);
      const lanes = await pageBox(page, '[data-testid="timeline"] canvas');
      for (const other of [".objects", ".details", ".legend", ".overview"])
        expect(intersects(lanes, await pageBox(page, other)), `${where}: lanes over ${other}`).toBe(
          false,
        );
      // Scrolled to the window's top, the lanes are on top there: not under the dock, nor under a
      // panel (the page scrolls them, lane by lane, through the room above the dock).
      const canvas = page.locator('[data-testid="timeline"] canvas');
      const onTop = await canvas.evaluate((e) => {
        e.scrollIntoView({ block: "start" });
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + 40);
        return hit !== null && (hit === e || e.parentElement!.contains(hit));
      });
      expect(onTop, `${where}: lanes covered`).toBe(true);
      await page.screenshot({ path: info.outputPath(`workshop-${vp.width}x${vp.height}.png`) });
    }
  } finally {
    await site.close();
  }
});
