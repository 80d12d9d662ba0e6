/**
 * Workshop on a replayed trace: a real `loopscope run --scenario create-foo` trace (embedded API
 * server + controller) opened in the static dashboard. Step-through walks it event by event with
 * narration and the machinery diagram; the self-triggered pass is narrated as such; "What did you
 * expect?" fills in the exercise; the queue view and presenter mode render. Screenshots go to
 * test-results/workshop-*.png.
 */
import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, serveDist, type StaticSite } from "./dashboard-harness.ts";
import { startReplay } from "./dashboard-live-server.ts";
import { expectPresenterFits } from "./presenter-fit.ts";

let site: StaticSite;
let trace: string;
test.describe.configure({ timeout: 120_000 });
test.beforeAll(async () => {
  site = await serveDist();
  trace = join(mkdtempSync(join(tmpdir(), "loopscope-e2e-ws-")), "create-foo.jsonl");
  execFileSync(
    "pnpm",
    ["--silent", "loopscope", "run", "--scenario", "create-foo", "--out", trace],
    {
      cwd: REPO,
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 60_000,
    },
  );
});
test.afterAll(async () => {
  await site?.close();
});

test("step through create-foo: narration names the self-triggered pass; expectations filled in", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(site.url);
  await page.getByTestId("file-input").setInputFiles(trace);
  await expect(page.getByTestId("object-row").filter({ hasText: "example-foo" })).toHaveCount(1);

  await page.getByTestId("workshop-toggle").click();
  await expect(page.getByTestId("workshop-key")).toHaveText("example-foo");
  await expect(page.getByTestId("workshop-key")).toHaveAttribute("title", "default/example-foo");
  await page.getByTestId("ws-step-first").click();
  await expect(page.getByTestId("ws-step-pos")).toContainText("step 1 of");
  // The scenario's own note comes first, then the user's create.
  await expect(page.getByTestId("narration")).toContainText("Scenario step");
  await page.getByTestId("ws-step-next").click();
  await expect(page.getByTestId("narration")).toContainText(
    "A user created the Foo: an external trigger",
  );
  await expect(page.locator('[data-part="informer"]')).toHaveAttribute("data-active", "true");
  await page.getByTestId("ws-step-next").click();
  await expect(page.locator('[data-part="workqueue"]')).toHaveAttribute("data-active", "true");
  await expect(page.getByTestId("queue-slot")).toHaveCount(1);
  await page.keyboard.press("n");
  await expect(page.locator('[data-part="worker"]')).toHaveAttribute("data-active", "true");
  // p steps back (a presentation clicker's key), and leaves the lanes as they are.
  await page.keyboard.press("p");
  await expect(page.locator('[data-part="workqueue"]')).toHaveAttribute("data-active", "true");
  await expect(page.getByTestId("view-lanes")).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("n");
  await expect(page.locator('[data-part="worker"]')).toHaveAttribute("data-active", "true");
  await page.screenshot({ path: "test-results/workshop-step.png" });

  // Jump to the first self-triggered pass and read its narration.
  await page.getByTestId("ws-step-next-self").click();
  const narration = page.getByTestId("narration");
  await expect(narration).toContainText("Every trigger was our own write coming back");
  await expect(narration).toContainText("a self-triggered pass");
  await expect(page.getByTestId("self-badge")).toBeVisible();
  // Its trigger: back one step at a time to the watch event that was the echo of our write.
  for (let i = 0; i < 12; i++) {
    const text = await narration.textContent();
    if (text?.includes("It is the echo of our own")) break;
    await page.getByTestId("ws-step-prev").click();
  }
  await expect(narration).toContainText(
    /It is the echo of our own (create|updateStatus) at seq \d+/,
  );
  await expect(page.locator(".machinery .echo.active")).toHaveCount(1);
  await page.screenshot({ path: "test-results/workshop-self-triggered.png" });
  // Past the last self-triggered pass, its button has nowhere to go: it says so by being off.
  for (let i = 0; i < 20 && (await page.getByTestId("ws-step-next-self").isEnabled()); i++)
    await page.getByTestId("ws-step-next-self").click();
  await expect(page.getByTestId("ws-step-next-self")).toBeDisabled();
  await expect(page.getByTestId("ws-step-next")).toBeEnabled();

  // What did you expect?
  await page.getByTestId("workshop-tab-expect").click();
  await expect(page.getByTestId("observed-write")).not.toHaveText("1");
  await expect(page.getByTestId("echo-list")).toContainText("came back as");
  await expect(page.getByTestId("reconcile-count")).toContainText(/\d/);
  await page.screenshot({ path: "test-results/workshop-expect.png" });

  await page.getByTestId("workshop-tab-queue").click();
  await expect(page.getByTestId("depth-line")).toBeAttached();
  await expect(page.getByTestId("pass-timing").first()).toBeAttached();
  await page.screenshot({ path: "test-results/workshop-queue.png" });

  // Compare with the shipped hot-loop sample: counts side by side, timelines aligned at creation.
  await page.getByTestId("workshop-tab-compare").click();
  await page.getByTestId("compare-sample").selectOption("hot-loop.jsonl");
  const table = page.getByTestId("compare-table");
  await expect(table.locator("tr", { hasText: "hot loop" })).toContainText(/no\s*yes/);
  await expect(page.getByTestId("aligned-row")).toHaveCount(2);
  await page.screenshot({ path: "test-results/workshop-compare.png" });

  // Presenter mode: large narration, share hint, side panels hidden.
  await page.getByTestId("workshop-tab-step").click();
  await page.getByTestId("presenter-toggle").click();
  await expect(page.locator("html")).toHaveAttribute("data-presenter", "on");
  const size = await narration
    .locator(".narration-text")
    .evaluate((el) => getComputedStyle(el).fontSize);
  expect(parseFloat(size)).toBeGreaterThanOrEqual(28);
  await expect(page.getByTestId("share-hint")).toBeVisible();
  await page.screenshot({ path: "test-results/workshop-presenter.png" });
  // Esc leaves presenter mode and keeps the step-through's place; Space on a focused button
  // presses it rather than starting playback.
  const place = await page.getByTestId("step-through").textContent();
  await page.keyboard.press("Escape");
  await expect(page.locator("html")).not.toHaveAttribute("data-presenter", "on");
  await expect(page.getByTestId("step-through")).toHaveText(place!);
  await page.getByTestId("presenter-toggle").focus();
  await page.keyboard.press(" ");
  await expect(page.locator("html")).toHaveAttribute("data-presenter", "on");
  await expect(page.getByTestId("play")).not.toContainText("pause");
  await page.getByTestId("presenter-toggle").click();

  // On a 720 px projector and a 1024×700 screen the five lanes fit above the dock: the dashboard
  // gives up the dock's height, so the timeline ends where the dock begins and its lanes need no
  // scrolling (the dock used to cover the write lane, and in presenter mode every lane).
  const timeline = page.locator('canvas[aria-label^="Timeline"]');
  for (const [width, height] of [
    [1280, 720],
    [1024, 700],
  ]) {
    await page.setViewportSize({ width, height });
    for (const presenter of [false, true]) {
      if (presenter) await page.getByTestId("presenter-toggle").click();
      const where = `${width}×${height} ${presenter ? "presenter" : "docked"}`;
      await expect(page.locator(".timeline-hint"), where).toHaveCount(0);
      const canvas = (await timeline.boundingBox())!;
      const dock = (await page.getByTestId("workshop").boundingBox())!;
      expect(canvas.y + canvas.height, where).toBeLessThanOrEqual(dock.y + 1);
      expect(canvas.height, where).toBeGreaterThanOrEqual(150);
      // Docked, the machinery diagram is whole in the dock (it was cut below its workers: the
      // echo arrow, the lesson, went out of sight); under the presenter's big narration it keeps
      // its height (no smaller than docked) and the dock scrolls.
      const machinery = (await page.getByTestId("machinery").boundingBox())!;
      if (!presenter)
        expect(machinery.y + machinery.height, where).toBeLessThanOrEqual(dock.y + dock.height + 1);
      expect(machinery.height, where).toBeGreaterThanOrEqual(presenter ? 175 : 120);
      // The Foo's name stays whole in the dock's bar, presenter mode at 1024 px too (there the
      // word "Workshop" gives way to it).
      const name = page.getByTestId("workshop-key").locator(".name");
      await expect(name, where).toHaveText("example-foo");
      // Not clipped by the key's box either.
      const key = (await page.getByTestId("workshop-key").boundingBox())!;
      const nameBox = (await name.boundingBox())!;
      expect(nameBox.x + nameBox.width, where).toBeLessThanOrEqual(key.x + key.width + 0.5);
    }
    await page.getByTestId("presenter-toggle").click();
  }
  expect(errors).toEqual([]);
});

test("presenter mode at 1024×700 with the attendees' link: every step's narration is read whole", async ({
  page,
}) => {
  // A hot loop with 409s between its writes: its passes' narrations are the longest. At 1024×700,
  // the attendees' link on a second row of the dock's bar, they ran 5–48 px past their box at
  // 14 px, while the step buttons took three rows and an empty row under them kept its gap.
  const server = await startReplay(join(REPO, "e2e/fixtures/hot-loop-409.jsonl"), ["--share"]);
  try {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(server.url);
    await page.getByTestId("workshop-toggle").click();
    await page.getByTestId("presenter-toggle").click();
    await expect(page.getByTestId("share-link")).toBeVisible();
    await page.getByTestId("ws-step-first").click();
    await expect(page.getByTestId("ws-step-pos")).toContainText("step 1 of");
    // Step by step in the page (n, as a clicker sends it): each step's narration fitted, the
    // step's position said, before the next one.
    const steps = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const pos = () => document.querySelector('[data-testid="ws-step-pos"]')!.textContent!;
      const out: { pos: string; over: number; px: number }[] = [];
      for (;;) {
        const box = document.querySelector<HTMLElement>('[data-testid="narration"]')!;
        const text = box.querySelector(".narration-text")!;
        // The fit refits a frame after a resize: two frames, and the box has settled.
        await frame();
        await frame();
        out.push({
          pos: pos(),
          over: box.scrollHeight - box.clientHeight,
          px: parseFloat(getComputedStyle(text).fontSize),
        });
        const was = pos();
        globalThis.dispatchEvent(new KeyboardEvent("keydown", { key: "n" }));
        for (let i = 0; i < 120 && pos() === was; i++) await frame();
        if (pos() === was) return out;
      }
    });
    expect(steps.length, "steps walked").toBeGreaterThan(100);
    const cut = steps
      .filter((s) => s.over > 0 || s.px < 14)
      .map((s) => `${s.pos}: ${s.over} px over at ${s.px} px`);
    expect(cut, "narrations that scroll in their box").toEqual([]);
    // The longest: a pass the Analyzer calls a hot loop. All of the dock is in view with it.
    const narration = page.getByTestId("narration");
    await page.getByTestId("ws-step-first").click();
    for (let step = 1; step < 40; step++) {
      await expect(page.getByTestId("ws-step-pos")).toContainText(`step ${step} of`);
      if ((await narration.textContent())?.includes("the Analyzer calls 5 a hot loop")) break;
      await page.keyboard.press("n");
    }
    await expect(narration).toContainText("the Analyzer calls 5 a hot loop");
    await expectPresenterFits(page, "1024×700, a hot loop's narration");
    await page.screenshot({ path: "test-results/workshop-presenter-hot-1024x700.png" });
  } finally {
    await server.stop();
  }
});

test("presenter mode at 1280×720, a long Foo name and the attendees' link: lanes, the whole narration and the whole diagram in view", async ({
  page,
}) => {
  // The same run under a long name: a three-line narration, and `replay --share` puts the
  // attendees' link on a second row of the dock's bar. The diagram under the narration ran off
  // the screen's bottom (to 790 px of 720), its text drawn at 8.7 px.
  const long = "example-foo-with-a-much-longer-name-for-the-workshop-room";
  const file = join(mkdtempSync(join(tmpdir(), "loopscope-e2e-ws-")), "long-foo.jsonl");
  writeFileSync(file, readFileSync(trace, "utf8").replaceAll("example-foo", long));
  const server = await startReplay(file, ["--share"]);
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(server.url);
    await page.getByTestId("object-row").filter({ hasText: long }).click();
    await page.getByTestId("workshop-toggle").click();
    await page.getByTestId("presenter-toggle").click();
    await page.getByTestId("ws-step-first").click();
    await page.getByTestId("ws-step-next-self").click();
    await expect(page.getByTestId("self-badge")).toBeVisible();
    await expect(page.getByTestId("narration")).toContainText(long);
    await expect(page.getByTestId("share-link")).toBeVisible();
    // At 1024 px the narration's column is ~460 px: a long narration's type gives way (down to
    // 14 px) rather than scroll in its box.
    const sizes = [
      [1280, 720, 12],
      [1920, 1080, 12],
      [1024, 768, 10],
    ] as const;
    for (const [width, height, minText] of sizes) {
      await page.setViewportSize({ width, height });
      const where = `${width}×${height}`;
      const { diagramText } = await expectPresenterFits(page, where);
      expect(diagramText, `${where}: the diagram's text, px`).toBeGreaterThanOrEqual(minText);
      await page.screenshot({
        path: `test-results/workshop-presenter-long-${width}x${height}.png`,
      });
    }
    // The longest narrations: a watch event that names the write it echoes, under a long name.
    const narration = page.getByTestId("narration");
    for (let i = 0; i < 12; i++) {
      if ((await narration.textContent())?.includes("It is the echo of our own")) break;
      await page.getByTestId("ws-step-prev").click();
    }
    await expect(narration).toContainText("It is the echo of our own");
    for (const [width, height] of sizes) {
      await page.setViewportSize({ width, height });
      const where = `${width}×${height}, an echo's narration`;
      await expect
        .poll(() => narration.evaluate((e) => e.scrollHeight <= e.clientHeight))
        .toBe(true);
      await expectPresenterFits(page, where);
      const px = await page
        .locator(".narration-text")
        .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      expect(px, `${where}: the narration's type`).toBeGreaterThanOrEqual(14);
      await page.screenshot({
        path: `test-results/workshop-presenter-echo-${width}x${height}.png`,
      });
    }
    // Beside the narration the diagram is in its two-row arrangement; docked, in its one row.
    await expect(page.getByTestId("machinery")).toHaveAttribute("data-layout", "column");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("machinery")).toHaveAttribute("data-layout", "row");
  } finally {
    await server.stop();
  }
});
