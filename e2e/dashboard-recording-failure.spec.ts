/**
 * Live with a recording that cannot be written: `loopscope up --record /dev/full` (every write
 * fails with ENOSPC, a real full disk without mounting one). The top bar says so from the first
 * paint, in the error colour, with how many events the file lacks — a count that follows the
 * run — and its "save them" link downloads exactly those events from the server's memory. The
 * run itself goes on: a Foo applied with kubectl fills the lanes as usual.
 */
import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./dashboard-harness.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

let server: LiveServer;
test.beforeAll(async () => {
  server = await startUp(["--record", "/dev/full"]);
});
test.afterAll(async () => {
  await server?.stop();
});

test("a recording that fails is said at once, with the events the file lacks, and the run goes on", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  const badge = page.getByTestId("recording-failed");
  await expect(badge).toContainText("recording failed · file lacks");
  const status = badge.locator(".status");
  await expect(status).toHaveAttribute(
    "title",
    /^Writing the recording “full” failed at \d\d:\d\d:\d\d: ENOSPC: no space left on device, write\. The file has no events; /,
  );
  const bad = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--bad-text").trim(),
  );
  await expect(status).toHaveCSS("color", hexToRgb(bad));

  execFileSync("kubectl", ["apply", "-f", join(REPO, "public/manifests/example-foo.yaml")], {
    env: { ...process.env, KUBECONFIG: server.kubeconfig },
  });
  // The run goes on: the Foo's passes arrive, and the count follows the page's last seq (the
  // header never reached the file, so it lacks every event).
  await expect(page.getByTestId("event-count")).not.toHaveAttribute("data-last-seq", "0");
  await expect
    .poll(async () => Number(await page.getByTestId("event-count").getAttribute("data-last-seq")), {
      timeout: 20_000,
    })
    .toBeGreaterThan(20);
  // Events go on arriving (the Deployment's rollout): compare the badge with the page's last seq
  // and the badge's words in one look at the page, until they settle on the same number.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const b = document.querySelector('[data-testid="recording-failed"]');
          const last = document
            .querySelector('[data-testid="event-count"]')
            ?.getAttribute("data-last-seq");
          const says = `file lacks ${Number(last).toLocaleString("en-US")} events`;
          return b?.getAttribute("data-missing") === last && b?.textContent?.includes(says);
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
  const lastSeq = await page.getByTestId("event-count").getAttribute("data-last-seq");
  await page.screenshot({ path: "test-results/recording-failed.png" });

  const download = page.waitForEvent("download");
  await page.getByTestId("recording-save").click();
  const saved = readFileSync(await (await download).path(), "utf8")
    .trim()
    .split("\n");
  const seqs = saved.slice(1).map((l) => (JSON.parse(l) as { seq: number }).seq);
  expect(seqs[0]).toBe(1);
  expect(seqs.length).toBeGreaterThanOrEqual(Number(lastSeq));
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));

  // A page opened now hears of it on connecting, not only one open when it happened.
  await page.reload();
  await expect(page.getByTestId("recording-failed")).toContainText("recording failed");
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
