/**
 * Replay of the logs people actually open, on the static build (no loopscope server) at a
 * 1280×800 laptop's size: sample-controller's log without the STAGE lines (its passes from the
 * "Successfully synced" / "Error syncing" lines, a failed pass with its error), the log of another
 * controller (kube-controller-manager's: no Foo at all), then a trace of our own to step through
 * from a selected pass, with its excerpt and resourceVersions in view at 1280 and 1920 px. And
 * `loopscope replay` of the foreign log: a server that replays has no cluster to advise about.
 * The logs are e2e/fixtures (see SOURCES.md there).
 */
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, serveDist, type StaticSite } from "./dashboard-harness.ts";
import { startReplay } from "./dashboard-live-server.ts";

const UNPATCHED = join(REPO, "e2e/fixtures/unpatched-exercise.log");
const KCM = join(REPO, "e2e/fixtures/kube-controller-manager.log");
const KEY = "default/example-foo";

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveDist();
});
test.afterAll(async () => {
  await site.close();
});

interface Row {
  seq: number;
  ts: number;
  stage: string;
  key: string;
}

/** The create-foo sample's stage events of the Foo, in the order ←/→ walk them (time, seq). */
function sampleSteps(): Row[] {
  return readFileSync(join(REPO, "public/traces/create-foo.jsonl"), "utf8")
    .split("\n")
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row)
    .filter(
      (e) => e.key === KEY && ["watch", "enqueue", "dequeue", "read", "write"].includes(e.stage),
    )
    .sort((a, b) => a.ts - b.ts || a.seq - b.seq);
}

/** Whether the excerpt's notes and the details' resourceVersions are all in view, unscrolled. */
async function noSidewaysScroll(page: Page) {
  return page.evaluate(() => {
    const inside = (el: Element, box: Element) =>
      el.getBoundingClientRect().right <= box.getBoundingClientRect().right + 0.5;
    const pre = document.querySelector('[data-testid="excerpt"]')!;
    const panel = document.querySelector(".panel.details")!;
    const notes = [...pre.querySelectorAll(".note")];
    const rvs = [...panel.querySelectorAll('[data-testid="rv-history-rv"]')];
    return {
      notes: notes.length,
      notesOut: notes.filter((n) => !inside(n, pre)).map((n) => n.textContent),
      excerptScrolls: pre.scrollWidth > pre.clientWidth + 1,
      rvs: rvs.length,
      rvsOut: rvs.filter((r) => !inside(r, panel)).map((r) => r.textContent),
      detailsScrolls: panel.scrollWidth > panel.clientWidth + 1,
    };
  });
}

test("an unpatched log, another controller's log, and stepping on from a selected pass", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(site.url);

  // sample-controller without the STAGE lines: passes, and what the log lacks, not five zeros.
  await page.getByTestId("file-input").setInputFiles(UNPATCHED);
  await expect(page.getByTestId("source")).toHaveText("replay · unpatched-exercise.log");
  const noStages = page.getByTestId("counts-no-stages");
  await expect(noStages).toContainText(
    "This log has no STAGE lines: passes come from its “Successfully synced” / “Error syncing” lines — 6 passes, 1 of them ended in error.",
  );
  await expect(page.getByTestId("count-row")).toHaveCount(0);
  // Its conflict shows only in the error line: still a 409 in the objects table.
  await expect(page.getByTestId("object-row").locator("td").nth(3)).toHaveText("1");
  // The failed pass says why it failed: the error of its "Error syncing" line (line 12).
  for (let i = 0; i < 3; i++) await page.keyboard.press("]");
  const pass = page.getByTestId("pass-details");
  await expect(pass).toContainText(`Pass ${KEY} #3`);
  await expect(pass).toContainText("requeued");
  await expect(page.getByTestId("pass-errors")).toHaveText(
    'line 12: Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": the object has been modified; please apply your changes to the latest version and try again',
  );
  await expect(page.getByTestId("pass-from-marker")).toBeVisible();
  await page.screenshot({ path: "test-results/replay-unpatched-1280.png" });
  // "What did you expect?" says the same, not "0 ≠ 1" five times.
  await page.getByTestId("workshop-toggle").click();
  await page.getByTestId("workshop-tab-expect").click();
  await expect(page.getByTestId("workshop").getByTestId("counts-no-stages")).toBeVisible();
  await expect(page.getByTestId("expect-counts")).toHaveCount(0);
  await page.getByTestId("workshop-close").click();

  // kube-controller-manager's log: what it holds, what loopscope reads, no live advice.
  await page.getByTestId("file-input").setInputFiles(KCM);
  await expect(page.getByTestId("source")).toHaveText("replay · kube-controller-manager.log");
  const empty = page.getByTestId("objects-empty");
  await expect(empty).toContainText("No Foo in this trace. It holds 9 events, all notes");
  await expect(page.getByTestId("no-foo-sources")).toHaveText(
    "controllermanager.go (4), deployment_controller.go (2), replica_set.go, secure_serving.go and 1 more file",
  );
  await expect(empty).toContainText(
    "no line of sample-controller’s: no STAGE/ line, no “Successfully synced” or “Error syncing” line",
  );
  await expect(empty).toContainText("loopscope reads the log of a sample-controller");
  await expect(page.locator("body")).not.toContainText("KUBECONFIG");
  await page.screenshot({ path: "test-results/replay-kube-controller-manager-1280.png" });

  // A trace of our own: ] selects a pass, → and ← go on from it, and the details show one thing.
  await page.getByTestId("samples").selectOption("create-foo.jsonl");
  await expect(page.getByTestId("source")).toHaveText("replay · traces/create-foo.jsonl");
  await page.getByTestId("samples").blur(); // the keys are the page's, not the menu's
  const steps = sampleSteps();
  const dequeues = steps.filter((e) => e.stage === "dequeue");
  const details = page.getByTestId("details");
  const event = page.getByTestId("event-details");
  await expect(page.getByTestId("object-row")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("]");
  await expect(pass).toContainText(`Pass ${KEY} #1`);
  await page.keyboard.press("]");
  await expect(pass).toContainText(`Pass ${KEY} #2`);
  await page.keyboard.press("ArrowRight");
  // The pass's own first event (its dequeue), not the trace's first event from the playhead.
  await expect(event).toContainText(`dequeue · seq ${dequeues[1].seq}`);
  await expect(details.getByTestId("pass-details")).toHaveCount(0);
  await page.keyboard.press("[");
  await expect(pass).toContainText(`Pass ${KEY} #1`);
  await expect(event).toHaveCount(0);
  await page.keyboard.press("ArrowLeft");
  const before = steps[steps.findIndex((e) => e.seq === dequeues[0].seq) - 1];
  await expect(event).toContainText(`${before.stage} · seq ${before.seq}`);
  await expect(details.getByTestId("pass-details")).toHaveCount(0);

  // The excerpt's notes and the Foo's resourceVersions are in view without scrolling sideways.
  await page.keyboard.press("ArrowLeft"); // the Foo's add: the history of its resourceVersions
  await expect(page.getByTestId("rv-history")).toBeVisible();
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await expect
      .poll(() => noSidewaysScroll(page), { message: `at ${width}×${height}` })
      .toMatchObject({ notesOut: [], excerptScrolls: false, rvsOut: [], detailsScrolls: false });
    const seen = await noSidewaysScroll(page);
    expect(seen.notes).toBeGreaterThan(10);
    expect(seen.rvs).toBeGreaterThan(2);
    await expect(page.getByTestId("excerpt")).toContainText(
      /‹self, echo of the (create|update|updateStatus) at \+\d\.\d{3}s›/,
    );
    // Its text is still the CLI's, a row a line (what a copy of it gives).
    expect(await page.getByTestId("excerpt").textContent()).toMatch(/\ndequeue +\+0\.\d+s /);
    await page.screenshot({ path: `test-results/replay-excerpt-${width}.png` });
  }
  expect(errors).toEqual([]);
});

test.describe("loopscope replay of a log with no Foo", () => {
  let server: Awaited<ReturnType<typeof startReplay>>;
  test.beforeAll(async () => {
    server = await startReplay(KCM);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("says what the log holds, never how to create a Foo on a cluster it does not have", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(server.url);
    await expect(page.getByTestId("source")).toContainText("kube-controller-manager.log");
    await expect(page.getByTestId("objects-empty")).toContainText(
      "No Foo in this trace. It holds 9 events",
    );
    await expect(page.locator("body")).not.toContainText("KUBECONFIG");
    await expect(page.locator("body")).not.toContainText("create example-foo");
  });

  test("a file with a long name opened over it keeps the top bar on one row at 1280 px", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(server.url);
    // Thousands of events, as a day's log has: their count takes its room in the bar too.
    const log = readFileSync(
      join(REPO, "packages/trace/fixtures/stage/create-canonical.log"),
      "utf8",
    );
    const day = Array.from({ length: 40 }, (_, i) => log.replaceAll("example-foo", `foo-${i}`));
    await page.getByTestId("file-input").setInputFiles({
      name: "sample-controller-forge-2026-12-02-after-the-restart.log",
      mimeType: "text/plain",
      buffer: Buffer.from(day.join("")),
    });
    await expect(page.getByTestId("back-to-live")).toBeVisible();
    // "← back to the server" pushed the theme button onto a row of its own.
    const top = async (id: string) => (await page.getByTestId(id).boundingBox())!.y;
    const row = await top("open-file");
    for (const id of ["back-to-live", "samples", "search", "theme"])
      expect(Math.abs((await top(id)) - row), id).toBeLessThan(8);
  });
});
