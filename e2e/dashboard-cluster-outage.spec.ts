/**
 * Live on a kubeconfig's cluster whose API server goes away mid-run: the top bar's badge says
 * "cluster unreachable" in the error colour, its tooltip the server, the error and since when —
 * also on a page opened during the outage — and "connected" again once the server is back; the
 * cluster's action buttons are off meanwhile, saying why. The
 * cluster is the embedded API server in this process, reached through a kubeconfig file, stopped
 * and started again on the same port.
 */
import { expect, test } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApiServer, type ApiServer } from "../packages/apiserver/src/index.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

let api: ApiServer | undefined;
let server: LiveServer;
test.beforeAll(async () => {
  api = await startApiServer({});
  const kubeconfig = join(mkdtempSync(join(tmpdir(), "loopscope-e2e-outage-")), "kubeconfig");
  await api.writeKubeconfig(kubeconfig);
  server = await startUp(["--kubeconfig", kubeconfig]);
});
test.afterAll(async () => {
  await server?.stop();
  await api?.stop();
});

test("the badge says the cluster is unreachable while it is, and connected once it is back", async ({
  page,
}) => {
  const { port, url } = api!;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  const badge = page.getByTestId("connection-status");
  await expect(badge).toHaveText("connected");
  await expect(badge).toHaveAttribute("data-cluster", "reachable");
  const connectedColour = await badge.evaluate((e) => getComputedStyle(e).color);

  await api!.stop();
  api = undefined;
  // Generous: the probe asks every 3 s; this is a limit, not a speed claim.
  await expect(badge).toHaveText("cluster unreachable", { timeout: 20_000 });
  await expect(badge).toHaveAttribute("data-status", "open");
  await expect(badge).toHaveAttribute(
    "title",
    new RegExp(
      `^${url} has not answered since \\d\\d:\\d\\d:\\d\\d: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\.`,
    ),
  );
  const errorColour = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--bad-text").trim(),
  );
  await expect(badge).toHaveCSS("color", hexToRgb(errorColour));
  expect(connectedColour).not.toBe(hexToRgb(errorColour));
  const create = page.getByTestId("action-create");
  await expect(create).toBeDisabled();
  await expect(create).toHaveAttribute(
    "title",
    `${url} is not answering (connect ECONNREFUSED 127.0.0.1:${port}): no action can reach it`,
  );

  // A page opened during the outage shows it from the start.
  await page.reload();
  await expect(badge).toHaveText("cluster unreachable");

  api = await startApiServer({ port });
  await expect(badge).toHaveText("connected", { timeout: 20_000 });
  await expect(badge).toHaveAttribute("data-cluster", "reachable");
  await expect(badge).not.toHaveAttribute("title");
  await expect(create).toBeEnabled();
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
