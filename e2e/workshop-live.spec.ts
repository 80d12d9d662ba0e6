/**
 * Workshop, live: `loopscope up` (embedded API server + controller). The hot-loop scenario is run
 * from the dashboard's scenario menu; the Foo gets the hot-loop badge in the workshop, and the
 * step-through narrates its passes as triggered by our own status writes. When the scenario ends
 * it switches the bug off again, the key goes quiet, and the objects table says so.
 */
import { expect, test } from "@playwright/test";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";
import { expectPresenterFits } from "./presenter-fit.ts";

let server: LiveServer;
test.describe.configure({ timeout: 120_000 });
test.beforeAll(async () => {
  server = await startUp();
});
test.afterAll(async () => {
  await server?.stop();
});

test("run hot-loop from the dashboard: hot-loop badge, narration of the self-triggered loop", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");

  await page.getByTestId("scenario").selectOption("hot-loop");
  await page.getByTestId("action-scenario").click();
  // When it is done the bar says what it found. (While it runs it says so, but the scenario
  // may be over in a tenth of a second: too quick to wait for.)
  await expect(page.getByTestId("action-result")).toContainText(
    "scenario hot-loop done: hot loop:",
    {
      timeout: 60_000,
    },
  );
  const foo = page.getByTestId("object-row").filter({ hasText: "example-foo" });
  await expect(foo).toHaveCount(1, { timeout: 30_000 });
  await foo.click();

  // What it found is said once the loop stopped: no "so far" beside "done", and the counts are
  // the Findings' to the word (they stopped growing with the loop).
  const result = page.getByTestId("action-result");
  await expect(result).toContainText("; it stopped once the bug was switched off");
  await expect(result).not.toContainText("so far");
  const said = /hot loop: (.*); it stopped/.exec((await result.textContent())!)![1];
  await page.getByTestId("tab-findings").click();
  await expect(page.locator('[data-testid="finding"][data-kind="hot-loop"]')).toContainText(said);
  await page.getByTestId("tab-counts").click();
  // The note sits clear of the objects table's headers and of the lanes' legend, on a laptop and
  // on a wide screen (where it floated under a one-row bar, over the legend).
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    const note = (await page.locator(".action-note").boundingBox())!;
    for (const [what, box] of [
      ["the objects' headers", page.getByTestId("objects-table").locator("thead")],
      ["the legend", page.getByTestId("legend")],
    ] as const) {
      const b = (await box.boundingBox())!;
      const apart =
        note.x >= b.x + b.width ||
        b.x >= note.x + note.width ||
        note.y >= b.y + b.height ||
        b.y >= note.y + note.height;
      expect(apart, `the note over ${what} at ${width}×${height}`).toBe(true);
    }
    await page.screenshot({ path: `test-results/workshop-live-done-${width}.png` });
  }
  await page.setViewportSize({ width: 1600, height: 1000 });

  await page.getByTestId("workshop-toggle").click();
  await expect(page.getByTestId("workshop-hot-loop")).toBeVisible();
  await page.getByTestId("ws-step-first").click();
  // Self-triggered passes, one after another, until the narration calls the loop by its name.
  const narration = page.getByTestId("narration");
  // (Five in a row make it one; passes refused with 409 between them are bridged, not counted.)
  for (let i = 0; i < 60; i++) {
    await page.getByTestId("ws-step-next-self").click();
    await expect(narration).toContainText("Every trigger was our own write coming back");
    if ((await narration.textContent())?.includes("— a hot loop")) break;
  }
  // Where the Analyzer's run reaches its threshold: the count is the Analyzer's, and so is the
  // threshold the narration names.
  await expect(narration).toContainText(
    /This pass will change [^(]*status\.lastSyncedAt[^(]* \(its write at seq \d+\): the key is looping on its own writes — a hot loop: 5 self-triggered passes (in a row )?that each changed something(, with \d+ refused with 409 between them \(not counted\))?; the Analyzer's threshold is 5\./,
  );
  await page.screenshot({ path: "test-results/workshop-live-hot-loop.png" });

  await page.getByTestId("workshop-tab-expect").click();
  await expect(page.getByTestId("expect-hot-loop")).toContainText(
    /✗ hot loop: \d+ (consecutive )?passes triggered by its own writes, changing status\.lastSyncedAt every time/,
  );
  await page.getByTestId("workshop-tab-queue").click();
  await expect(page.getByTestId("pass-timing").first()).toBeAttached();
  await page.screenshot({ path: "test-results/workshop-live-queue.png" });

  // The scenario ends by itself and switches the bug off: the loop stops, the key goes quiet —
  // and the objects table says so too: its state is what the Foo does now (the finding stays).
  await expect(page.getByTestId("workshop-quiescent")).toHaveText("quiet now", { timeout: 45_000 });
  await page.getByTestId("workshop-close").click();
  // (While it loops the table says "hot loop": the loop is over in a second, too quick to see.)
  await expect(foo.getByTestId("object-state")).toHaveText("quiescent");
  await expect(foo.getByTestId("object-state")).toHaveAttribute("title", /hot loop stopped/);
  expect(errors).toEqual([]);
});

test("a scenario run from the dashboard shows the Foo it acts on, not the one selected before", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  // example-foo is selected: the page picks the first Foo it has (made here if the first test
  // did not run).
  const selected = page.locator('[data-testid="object-row"][aria-selected="true"]');
  if ((await page.getByTestId("object-row").count()) === 0)
    await page.getByTestId("action-create").click();
  await expect(selected).toHaveAttribute("data-key", "default/example-foo", { timeout: 30_000 });
  await page.getByTestId("scenario").selectOption("burst");
  await page.getByTestId("action-scenario").click();
  // The burst's Foos, not example-foo: its lanes, and the first of them selected.
  await expect(selected).toHaveAttribute("data-key", "default/burst-01", { timeout: 30_000 });
  await expect(page.getByTestId("action-result")).toContainText("scenario burst done", {
    timeout: 60_000,
  });
  await expect(selected).toHaveCount(1);
});

test("a scenario under way can be stopped from the bar, and says it stopped", async ({ page }) => {
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  await page.getByTestId("scenario").selectOption("create-foo");
  await page.getByTestId("action-scenario").click();
  // It waits for the Deployment to be available (1.5 s in the embedded cluster): time to stop it.
  await expect(page.getByTestId("action-running")).toContainText("running Create one Foo");
  await page.getByTestId("action-stop").click();
  await expect(page.getByTestId("action-result")).toContainText(
    "scenario create-foo stopped from the dashboard",
  );
  await expect(page.getByTestId("action-running")).toHaveCount(0);
  await expect(page.getByTestId("action-scenario")).toBeEnabled();
});

test("presenter mode on a 1024 px projector: the five lanes fit above the dock, live too; at 1280×720 the whole diagram", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  await page.getByTestId("scenario").selectOption("create-foo");
  await page.getByTestId("action-scenario").click();
  await expect(page.getByTestId("action-result")).toContainText("scenario create-foo done", {
    timeout: 60_000,
  });
  await page.getByTestId("object-row").filter({ hasText: "example-foo" }).click();
  await page.getByTestId("workshop-toggle").click();
  await page.getByTestId("presenter-toggle").click();
  await page.getByTestId("ws-step-first").click();
  await page.getByTestId("ws-step-next-self").click();
  // A live session's bar is two rows (the cluster's actions have their own): with
  // the legend wrapped to two rows too, the write lane went under the dock at 1024 px.
  const timeline = page.getByTestId("timeline");
  for (const [width, height] of [
    [1024, 700],
    [1024, 768],
    [1280, 720],
  ]) {
    await page.setViewportSize({ width, height });
    const where = `${width}×${height}`;
    await expect(page.locator(".timeline-hint"), `${where}: lanes scroll`).toHaveCount(0);
    const lanes = (await timeline.boundingBox())!;
    const dock = (await page.getByTestId("workshop").boundingBox())!;
    expect(lanes.y + lanes.height, where).toBeLessThanOrEqual(dock.y + 1);
    const legendType = await page
      .getByTestId("legend")
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(legendType, `${where}: the legend in the room's type`).toBeGreaterThanOrEqual(14);
    // Beside the narration the whole diagram is in view too, its text at 12 px or more at 1280
    // px (under the narration it ran off the bottom, its text at ~9 px).
    const { diagramText } = await expectPresenterFits(page, where);
    if (width >= 1280)
      expect(diagramText, `${where}: the diagram's text, px`).toBeGreaterThanOrEqual(12);
    await page.screenshot({ path: `test-results/workshop-live-presenter-${width}x${height}.png` });
  }
});

test("a reload mid-workshop comes back to the same step, with the lanes showing what was narrated", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  if ((await page.getByTestId("object-row").count()) === 0)
    await page.getByTestId("action-create").click();
  const foo = page.getByTestId("object-row").filter({ hasText: "example-foo" });
  await expect(foo.getByTestId("object-state")).toHaveText("quiescent", { timeout: 30_000 });
  await foo.click();
  await page.getByTestId("workshop-toggle").click();
  await page.getByTestId("ws-step-first").click();
  for (let i = 0; i < 4; i++) await page.getByTestId("ws-step-next").click();
  const pos = page.getByTestId("ws-step-pos");
  await expect(pos).toContainText(/^step 5 of \d+/);
  const at = await page.getByTestId("playhead-time").textContent();
  const narrated = await page.getByTestId("narration").textContent();
  // The URL catches up (it is written at most every 250 ms).
  const seq = /seq (\d+)/.exec((await pos.textContent())!)![1];
  await expect.poll(() => new URL(page.url()).searchParams.get("ev")).toBe(seq);
  expect(new URL(page.url()).searchParams.has("at")).toBe(true);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.reload();
  await expect(pos).toContainText(/^step 5 of \d+/);
  await expect(page.getByTestId("narration")).toHaveText(narrated!);
  await expect(page.getByTestId("playhead-time")).toHaveText(at!);
  expect(errors).toEqual([]);
});
