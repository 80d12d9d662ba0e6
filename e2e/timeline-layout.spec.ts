/**
 * The timeline a room can read, checked by its geometry (e2e/timeline-geometry.ts: what the frame
 * drew, from the layout that painted it — not pixels) at 1280×800 and 1920×1080, in folded and
 * linear time, for the create-foo, hot-loop and burst samples replayed and the same scenarios run
 * live: every create-foo pass ≥ 24 px in folded time, no label over another, the self-triggered
 * pass labelled. Then, on one page each: the pass view, the `?` shortcuts, presenter mode.
 * Screenshots of every case go to test-results/ for a person to look at.
 */
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { serveDist, type StaticSite } from "./dashboard-harness.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";
import {
  labelsOverBreaks,
  overlappingLabels,
  readGeometry,
  selfLabelled,
} from "./timeline-geometry.ts";

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const BURST = Array.from({ length: 8 }, (_, i) => `default/burst-0${i + 1}`);

test.describe.configure({ timeout: 240_000 });

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveDist();
});
test.afterAll(async () => {
  await site?.close();
});

/** Both time modes at both sizes on the page as it is: the geometry checks, and a screenshot. */
async function checkModes(page: Page, info: TestInfo, name: string, create: boolean) {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    for (const mode of ["folded", "linear"] as const) {
      await page.getByTestId(`time-${mode}`).click();
      await expect(page.getByTestId("timeline")).toHaveAttribute("data-time", mode);
      const g = await readGeometry(page);
      const where = `${name} ${vp.width}×${vp.height} ${mode}`;
      expect(g.passes.length, `${where}: passes drawn`).toBeGreaterThan(0);
      expect(overlappingLabels(g.labels), `${where}: overlapping labels`).toEqual([]);
      expect(labelsOverBreaks(g), `${where}: labels across a break mark`).toEqual([]);
      const self = selfLabelled(g);
      if (self.drawn > 0)
        expect(self.labelled, `${where}: a self-triggered pass labelled`).toBe(true);
      if (create && mode === "folded") {
        for (const p of g.passes)
          expect(p.x1 - p.x0, `${where}: pass #${p.number} width`).toBeGreaterThanOrEqual(24);
        expect(g.breaks.length, `${where}: folded gaps`).toBeGreaterThan(0);
      }
      await page.screenshot({ path: info.outputPath(`${name}-${vp.width}-${mode}.png`) });
    }
  }
}

test("replayed samples: folded and linear at 1280×800 and 1920×1080", async ({ page }, info) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  for (const [trace, foos, create] of [
    ["create-foo", [], true],
    ["hot-loop", [], false],
    ["burst", BURST, false],
  ] as const) {
    const q = new URLSearchParams({ trace: `traces/${trace}.jsonl` });
    for (const f of foos) q.append("foo", f);
    await page.goto(`${site.url}?${q}`);
    await expect(page.getByTestId("timeline-pass").first()).toBeAttached();
    await expect(page.getByTestId("load-progress")).toHaveCount(0);
    if (create) {
      // Every pass of the creation is in the default window.
      await expect(page.getByTestId("timeline-pass")).toHaveCount(8);
    }
    await checkModes(page, info, `replay-${trace}`, create);
  }
  // Several Foos stack, each with its header: all eight burst Foos' groups are laid out.
  const g = await readGeometry(page);
  expect(new Set(g.passes.map((p) => p.key)).size).toBeGreaterThan(1);
  expect(errors).toEqual([]);
});

test("pass view, shortcuts overlay, remembered split, presenter mode", async ({ page }, info) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${site.url}?trace=traces/create-foo.jsonl`);
  await expect(page.getByTestId("timeline-pass")).toHaveCount(8);

  // The pass view: one column per pass, the self-triggered one labelled as such, and arrows from
  // the writes to the watch events that echoed them.
  await page.keyboard.press("p");
  const columns = page.getByTestId("pass-column");
  await expect(columns).toHaveCount(8);
  const self = page.locator('[data-testid="pass-column"][data-cause="self"]');
  await expect(self.first().getByTestId("pass-column-label")).toContainText("self");
  expect(await page.getByTestId("echo-arrow").count()).toBeGreaterThanOrEqual(2);
  for (let i = 0; i < 8; i++) {
    const box = (await columns.nth(i).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(100);
  }
  await page.screenshot({ path: info.outputPath("passview-create-foo-1280.png") });
  await columns.nth(1).click();
  await expect(page.getByTestId("details")).toContainText("#2");
  await page.keyboard.press("p");
  await expect(page.getByTestId("timeline")).toBeVisible();

  // `?` lists the shortcuts; Esc closes the overlay and only that (the selection stays).
  await page.keyboard.press("?");
  const overlay = page.getByTestId("shortcuts");
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText("folded ⇄ linear time");
  await expect(overlay).toContainText("lanes ⇄ pass-by-pass view");
  await page.keyboard.press("Escape");
  await expect(overlay).toHaveCount(0);
  await expect(page.getByTestId("details")).toContainText("#2");
  await page.getByTestId("shortcuts-button").click();
  await expect(overlay).toBeVisible();
  // Modal: Tab stays in it and `t` does not reach the lanes behind it; closed, the focus is back
  // on the button that opened it.
  for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
  expect(await overlay.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("t");
  await expect(page.getByTestId("time-folded")).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("?");
  await expect(overlay).toHaveCount(0);
  await expect(page.getByTestId("shortcuts-button")).toBeFocused();

  // The lanes take the height they need; the panel below gets the rest. A dragged split is kept
  // across a reload.
  const lanes = (await page.getByTestId("timeline").boundingBox())!;
  const bottom = (await page.locator(".bottom").boundingBox())!;
  expect(bottom.height).toBeGreaterThan(lanes.height);
  const split = (await page.getByTestId("split").boundingBox())!;
  await page.mouse.move(split.x + 200, split.y + 3);
  await page.mouse.down();
  await page.mouse.move(split.x + 200, split.y + 123, { steps: 4 });
  await page.mouse.up();
  const taller = (await page.getByTestId("timeline").boundingBox())!;
  expect(taller.height).toBeGreaterThan(lanes.height + 80);
  await page.reload();
  await expect(page.getByTestId("timeline-pass")).toHaveCount(8);
  const after = (await page.getByTestId("timeline").boundingBox())!;
  expect(Math.abs(after.height - taller.height)).toBeLessThan(3);
  await page.getByTestId("split").dblclick();
  await expect
    .poll(async () => (await page.getByTestId("timeline").boundingBox())!.height)
    .toBeLessThan(taller.height - 80);

  // Presenter mode scales the timeline's type, takes its theme, and keeps the legend, at 1920×1080
  // and at 1280×720.
  const normal = await readGeometry(page);
  const passLabelHeight = (g: typeof normal) =>
    Math.max(...g.labels.filter((l) => l.kind === "pass").map((l) => l.h));
  await page.getByTestId("workshop-toggle").click();
  await page.getByTestId("presenter-toggle").click();
  for (const vp of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 720 },
  ]) {
    await page.setViewportSize(vp);
    const big = await readGeometry(page);
    expect(passLabelHeight(big)).toBeGreaterThan(passLabelHeight(normal) * 1.2);
    expect(overlappingLabels(big.labels)).toEqual([]);
    expect(selfLabelled(big).labelled).toBe(true);
    await expect(page.getByTestId("legend")).toBeVisible();
    const legendSize = await page
      .getByTestId("legend")
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(legendSize).toBeGreaterThan(13);
    // The canvas takes the presenter theme, as the rest of the page does: its axis row is the
    // presenter's panel colour (#0b0b0b), not the dark theme's (#1c2028).
    const corner = await page
      .getByTestId("timeline")
      .locator("canvas")
      .evaluate((c: HTMLCanvasElement) =>
        Array.from(c.getContext("2d")!.getImageData(2, 2, 1, 1).data),
      );
    expect(corner.slice(0, 3)).toEqual([11, 11, 11]);
    // The write lane is above the dock.
    const w = (await page.getByTestId("timeline").boundingBox())!;
    const dock = (await page.locator(".workshop").boundingBox())!;
    expect(w.y + Math.min(w.height, 60)).toBeLessThan(dock.y);
    await page.screenshot({ path: info.outputPath(`presenter-${vp.width}x${vp.height}.png`) });
  }
  await page.keyboard.press("Escape");
});

test.describe("live", () => {
  let server: LiveServer;
  test.beforeAll(async () => {
    server = await startUp();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("live scenarios: folded and linear at 1280×800 and 1920×1080", async ({ page }, info) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(server.url);
    await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
    for (const scenario of ["create-foo", "hot-loop", "burst"] as const) {
      await page.getByTestId("scenario").selectOption(scenario);
      await page.getByTestId("action-scenario").click();
      await expect(page.getByTestId("action-result")).toContainText(`scenario ${scenario} done`, {
        timeout: 90_000,
      });
      const first = scenario === "burst" ? "burst-01" : "example-foo";
      const row = page.getByTestId("object-row").filter({ hasText: first });
      await row.first().click();
      if (scenario === "burst")
        for (let i = 2; i <= 8; i++)
          await page
            .getByTestId("object-row")
            .filter({ hasText: `burst-0${i}` })
            .click({ modifiers: ["Control"] });
      await expect(page.getByTestId("timeline-pass").first()).toBeAttached();
      if (scenario === "create-foo")
        await expect(row.first().getByTestId("object-state")).toHaveText("quiescent", {
          timeout: 30_000,
        });
      // The window as the dashboard opens it on this Foo: its creation.
      await page.keyboard.press("c");
      await checkModes(page, info, `live-${scenario}`, scenario === "create-foo");
      await page.setViewportSize({ width: 1920, height: 1080 });
    }
    expect(errors).toEqual([]);
  });
});
