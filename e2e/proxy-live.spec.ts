/**
 * `loopscope proxy` with its dashboard, as a user of their own controller meets it: the
 * TypeScript FooController runs in a process of its own with the proxy's kubeconfig (its probe
 * writes nowhere the proxy can see), a Foo is applied with the real kubectl, and the page draws
 * what the wire showed — watch and write lanes, the enqueue/dequeue/read lanes hatched and said
 * unseen or inferred (not empty lanes that suggest nothing happened), no "≠ 1" against stages it
 * could not see, the controller's own writes coming back as self-triggered passes, and each
 * pass said to be inferred from the wire.
 */
import { expect, test } from "@playwright/test";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { REPO } from "./dashboard-harness.ts";
import { startProxy, type ProxyServer } from "./dashboard-live-server.ts";
import { readGeometry } from "./timeline-geometry.ts";

let proxy: ProxyServer;
let controller: ChildProcess | undefined;
test.beforeAll(async () => {
  proxy = await startProxy();
  // node itself, not the tsx wrapper: a signal to the wrapper left its node child running.
  controller = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/src/proxy/foo-controller.fixture.ts",
      proxy.controllerKubeconfig,
    ],
    { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
  );
  let err = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`controller not ready:\n${err}`)), 45_000);
    controller!.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (err.includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
});
test.afterAll(async () => {
  if (controller && controller.exitCode === null) {
    const exited = new Promise((resolve) => controller!.once("exit", resolve));
    controller.kill("SIGTERM");
    await exited;
  }
  await proxy?.stop();
});

test("a controller traced through loopscope proxy: unseen lanes said so, self passes found, passes inferred", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(proxy.url);
  execFileSync("kubectl", ["apply", "-f", join(REPO, "public/manifests/example-foo.yaml")], {
    env: { ...process.env, KUBECONFIG: proxy.kubeconfig },
  });
  const row = page.locator('[data-testid="object-row"][data-key="default/example-foo"]');
  await expect(row).toBeVisible({ timeout: 20_000 });
  // The status write's echo (and the Deployment's) come back: at least one self-triggered pass.
  await expect
    .poll(async () => Number(await row.locator("td.num").nth(1).textContent()), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  await row.click();
  // The proxy watches no objects of its own: the page has no snapshot that could call the Foo
  // absent, so scale and delete stay on (they were off, "there is no example-foo yet").
  await expect(page.getByTestId("action-scale")).toBeEnabled();
  await expect(page.getByTestId("action-delete")).toBeEnabled();

  const unseen = async () =>
    (await readGeometry(page)).labels.filter((l) => l.kind === "unseen").map((l) => l.text);
  await expect
    .poll(unseen)
    .toEqual(["enqueue: inferred", "dequeue: unseen", "read: API GETs only"]);

  // The counts table: no miss against "expected 1" for what the wire cannot show.
  for (const stage of ["enqueue", "dequeue", "read"]) {
    const count = page.locator(`[data-testid="count-row"][data-stage="${stage}"]`);
    await expect(count).not.toHaveClass(/differs/);
    await expect(count.getByTestId("off-the-wire")).toBeVisible();
  }
  await expect(
    page.locator('[data-testid="count-row"][data-stage="dequeue"] [data-testid="off-the-wire"]'),
  ).toHaveText("unseen");

  // A pass, selected: the details say how it was seen.
  await page.keyboard.press("]");
  await expect(page.getByTestId("pass-details")).toBeVisible();
  await expect(page.getByTestId("pass-from-wire")).toContainText("inferred from the wire");
  await page.screenshot({ path: "test-results/proxy-live.png" });
});
