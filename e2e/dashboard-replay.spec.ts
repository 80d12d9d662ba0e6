/**
 * Replay with no loopscope server: the static build opens a klog file through the file input,
 * parses it in the Web Worker, draws the swimlanes and lists a diagnostic for the broken line.
 */
import { expect, test } from "@playwright/test";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { REPO, serveDist, type StaticSite } from "./dashboard-harness.ts";

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveDist();
});
test.afterAll(async () => {
  await site.close();
});

const BROKEN = "I1202 09:14:06.031380   48211 controller.go:338] STAGE/enqueue";

function brokenKlog(): { path: string; brokenLine: number } {
  const lines = readFileSync(
    join(REPO, "packages/trace/fixtures/stage/create-canonical.log"),
    "utf8",
  ).split("\n");
  const at = lines.findIndex((l) => l.includes("STAGE/enqueue")) + 1;
  lines.splice(at, 0, BROKEN);
  const dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-"));
  const path = join(dir, "controller.log");
  writeFileSync(path, lines.join("\n"));
  return { path, brokenLine: at + 1 };
}

test("opens a klog file: swimlanes, self-triggered passes, a diagnostic for the broken line", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(site.url);
  const { path, brokenLine } = brokenKlog();
  await page.getByTestId("file-input").setInputFiles(path);

  await expect(page.getByTestId("source")).toHaveText("replay · controller.log");
  const row = page.getByTestId("object-row").filter({ hasText: "example-foo" });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("aria-selected", "true");
  // Swimlanes: the timeline lists its passes; the first create's echo passes are self-triggered.
  await expect(page.getByTestId("timeline-pass").first()).toBeAttached();
  await expect(page.locator('[data-testid="timeline-pass"][data-cause="self"]')).toHaveCount(2);
  await expect(page.getByTestId("count-row")).toHaveCount(5);

  // The creation (first event → quiescent) fills the view: bands, marks and labels readable.
  await page.getByTestId("fit-creation").click();
  const selfPass = page.locator('[data-testid="timeline-pass"][data-cause="self"]').first();
  await expect(selfPass).toContainText("self-triggered");
  await page.screenshot({ path: "test-results/dashboard-replay.png" });

  await page.getByTestId("tab-diagnostics").click();
  const diag = page.getByTestId("diagnostic").filter({ hasText: `line ${brokenLine}` });
  await expect(diag).toHaveCount(1);
  await expect(diag).toContainText("without a key");
  await page.screenshot({ path: "test-results/dashboard-replay-diagnostics.png" });
  expect(errors).toEqual([]);
});

test("a sample trace is one click away and deep links reopen the same moment", async ({ page }) => {
  await page.goto(site.url);
  await page.getByTestId("samples").selectOption("create-foo.jsonl");
  await expect(page.getByTestId("object-row")).toHaveCount(1);
  await page.getByTestId("step-next").click();
  await expect(page.getByTestId("event-details")).toContainText("watch · seq 1");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("event-details")).toContainText("enqueue · seq 2");
  await expect(page).toHaveURL(/trace=traces%2Fcreate-foo\.jsonl.*foo=default%2Fexample-foo.*ev=2/);

  const link = page.url();
  const again = await page.context().newPage();
  await again.goto(link);
  await expect(again.getByTestId("event-details")).toContainText("enqueue · seq 2");
  await expect(again.getByTestId("object-row")).toHaveAttribute("aria-selected", "true");
});

test("opens a gzip-compressed trace (DecompressionStream in the worker)", async ({ page }) => {
  await page.goto(site.url);
  const jsonl = readFileSync(join(REPO, "public/traces/create-foo.jsonl"));
  await page.getByTestId("file-input").setInputFiles({
    name: "create-foo.jsonl.gz",
    mimeType: "application/gzip",
    buffer: gzipSync(jsonl),
  });
  await expect(page.getByTestId("source")).toHaveText("replay · create-foo.jsonl.gz");
  const events = jsonl.toString().trim().split("\n").length - 1; // minus the header line
  await expect(page.getByTestId("event-count")).toHaveAttribute("data-count", String(events));
  await page.getByTestId("tab-diagnostics").click();
  await expect(page.getByText("No problems reading this trace.")).toBeVisible();
});
