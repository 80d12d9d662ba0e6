/**
 * `pnpm screenshots`: regenerates the docs' pictures (docs/img/*.png) from the built dashboard
 * (`pnpm build` first) in Debian's Chromium — the README's replaying the create-foo sample,
 * docs/proxy.md's a run of `loopscope proxy` made now (our controller through the proxy on the
 * embedded cluster, a Foo applied with kubectl, as that page and e2e/proxy-live.spec.ts do) — and
 * checks each with the timeline e2e's geometry checks before writing it (no label over another,
 * the self-triggered pass labelled, every pass ≥ 24 px in folded time), so a picture in the docs
 * never shows what the tests would refuse.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { REPO, serveDist } from "../../e2e/dashboard-harness.ts";
import { startProxy } from "../../e2e/dashboard-live-server.ts";
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

    await proxyPicture(browser);
  } finally {
    await browser.close();
    await site.close();
  }
}

/**
 * docs/proxy.md's picture, at the 1280×800 of its e2e: example-foo applied with kubectl once our
 * controller (a process of its own, the proxy's kubeconfig) has synced, drawn when the Foo is
 * quiescent, its first self-triggered pass selected (its details say it was inferred from the
 * wire).
 */
async function proxyPicture(browser: Browser): Promise<void> {
  const proxy = await startProxy();
  // node itself, not the tsx wrapper: a signal to the wrapper left its node child running.
  const controller = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/src/proxy/foo-controller.fixture.ts",
      proxy.controllerKubeconfig,
    ],
    { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
  );
  try {
    let err = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`controller not ready:\n${err}`)), 45_000);
      controller.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        if (err.includes("ready")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
      colorScheme: "dark",
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(proxy.url);
    execFileSync("kubectl", ["apply", "-f", join(REPO, "public/manifests/example-foo.yaml")], {
      env: { ...process.env, KUBECONFIG: proxy.kubeconfig },
    });
    const row = page.locator('[data-testid="object-row"][data-key="default/example-foo"]');
    await row.getByText("quiescent").waitFor({ timeout: 30_000 });
    await row.click();
    await page.getByTestId("time-folded").click();
    // The first self-triggered pass: its echo arrow drawn, its details in the panel.
    for (let i = 0; i < 2; i++) await page.keyboard.press("]");
    await page.getByTestId("pass-from-wire").waitFor();
    await checked(page, "proxy.png");
    await page.screenshot({ path: join(OUT, "proxy.png") });
    process.stdout.write("docs/img/proxy.png\n");
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
  } finally {
    if (controller.exitCode === null) {
      const exited = new Promise((resolve) => controller.once("exit", resolve));
      controller.kill("SIGTERM");
      await exited;
    }
    await proxy.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`screenshots: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
