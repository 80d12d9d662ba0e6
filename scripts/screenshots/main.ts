/**
 * `pnpm screenshots`: regenerates the README's pictures (docs/img/*.png) from the built dashboard
 * (`pnpm build` first) replaying the create-foo sample in Debian's Chromium — and checks each with
 * the timeline e2e's geometry checks before writing it (no label over another, the self-triggered
 * pass labelled, every pass ≥ 24 px in folded time), so a picture in the README never shows what
 * the tests would refuse.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { REPO, serveDist } from "../../e2e/dashboard-harness.ts";
import { overlappingLabels, readGeometry, selfLabelled } from "../../e2e/timeline-geometry.ts";

const OUT = join(REPO, "docs", "img");
const VIEWPORT = { width: 1600, height: 900 };

async function checked(page: Page, what: string): Promise<void> {
  const g = await readGeometry(page);
  const problems: string[] = [];
  const overlaps = overlappingLabels(g.labels);
  if (overlaps.length) problems.push(`${overlaps.length} overlapping labels`);
  if (!selfLabelled(g).labelled) problems.push("the self-triggered pass has no label");
  for (const p of g.passes)
    if (p.x1 - p.x0 < 24) problems.push(`pass #${p.number} is ${(p.x1 - p.x0).toFixed(1)} px`);
  if (problems.length) throw new Error(`${what}: ${problems.join("; ")}`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const site = await serveDist();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: "dark" });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${site.url}?trace=traces/create-foo.jsonl`);
    await page.getByTestId("timeline-pass").nth(7).waitFor({ state: "attached" });
    await page.getByTestId("time-folded").click();

    // The lanes in folded time, the self-triggered pass selected (its arrows drawn).
    await page.keyboard.press("]");
    await page.keyboard.press("]");
    await checked(page, "dashboard.png");
    await page.screenshot({ path: join(OUT, "dashboard.png") });
    process.stdout.write("docs/img/dashboard.png\n");

    // The pass view: why did it run twice?
    await page.keyboard.press("p");
    await page.getByTestId("pass-column").nth(7).waitFor({ state: "attached" });
    await page.screenshot({ path: join(OUT, "passes.png") });
    process.stdout.write("docs/img/passes.png\n");
    await page.keyboard.press("p");

    // The workshop's step-through at the first self-triggered pass.
    await page.getByTestId("workshop-toggle").click();
    await page.getByTestId("ws-step-first").click();
    await page.getByTestId("ws-step-next-self").click();
    await checked(page, "workshop.png");
    await page.screenshot({ path: join(OUT, "workshop.png") });
    process.stdout.write("docs/img/workshop.png\n");
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
  } finally {
    await browser.close();
    await site.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`screenshots: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
