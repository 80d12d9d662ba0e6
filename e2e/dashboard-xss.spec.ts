/**
 * Everything from a trace is text: object names carrying markup render literally and run nothing.
 */
import { expect, test } from "@playwright/test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveDist, type StaticSite } from "./dashboard-harness.ts";

let site: StaticSite;
test.beforeAll(async () => {
  site = await serveDist();
});
test.afterAll(async () => {
  await site.close();
});

const EVIL = "<img src=x onerror=alert(1)>";

function evilTrace(): string {
  const key = `default/${EVIL}`;
  const t = 1_796_199_516_705_901;
  const rows = [
    { loopscope: "trace", version: 1, source: "e2e" },
    {
      seq: 1,
      ts: t,
      stage: "watch",
      kind: "Foo",
      event: "add",
      key,
      name: EVIL,
      rv: "10",
      src: "x.go:1",
    },
    { seq: 2, ts: t + 100, stage: "enqueue", key, len: 1, cause: "watch", causeSeq: 1 },
    { seq: 3, ts: t + 200, stage: "dequeue", key, len: 0, worker: 1 },
    {
      seq: 4,
      ts: t + 300,
      stage: "read",
      key,
      rv: "10",
      raw: `I1202 STAGE/read key=${key} ${EVIL}`,
    },
    {
      seq: 5,
      ts: t + 900,
      stage: "write",
      key,
      verb: "create",
      target: `deployments/default/${EVIL}`,
      rv: "11",
      code: 201,
    },
    { seq: 6, ts: t + 1000, stage: "done", key, outcome: "synced" },
    { seq: 7, ts: t + 1200, stage: "note", key, text: `<script>window.__pwned=1</script>${EVIL}` },
  ];
  const dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-"));
  const path = join(dir, "evil.jsonl");
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path;
}

test("object names with markup render as text and run no script", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(site.url);
  await page.getByTestId("file-input").setInputFiles(evilTrace());

  const row = page.getByTestId("object-row");
  await expect(row).toHaveCount(1);
  // One namespace: the row names the Foo alone, the header says "in default".
  // The name a screen reader reads, and the two halves drawn (MiddleCut), each as text.
  await expect(row.locator("td.key .sr-only")).toHaveText(EVIL);
  expect((await row.locator('td.key [aria-hidden="true"]').allTextContents()).join("")).toBe(EVIL);
  // …and copied once, as it reads.
  const copied = await row.locator("td.key").evaluate((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    const selection = getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return selection.toString();
  });
  expect(copied).toBe(EVIL);
  await expect(row.locator("td.key")).toHaveAttribute("title", `default/${EVIL}`);
  // Open the details of the read event (raw line with markup) via keyboard stepping.
  await page.getByTestId("step-next").click();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("event-raw")).toHaveText(
    `I1202 STAGE/read key=default/${EVIL} ${EVIL}`,
  );
  await page.getByTestId("tab-counts").click();
  await expect(page.getByTestId("counts-table")).toBeVisible();

  expect(await page.locator("img").count()).toBe(0);
  expect(await page.locator("main script, #root script").count()).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  expect(dialogs).toEqual([]);
  await page.screenshot({ path: "test-results/dashboard-xss.png" });
});
