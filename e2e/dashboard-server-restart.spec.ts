/**
 * The server goes away under an open page, and comes back. Stopped: the badge says nothing
 * answers (not just "reconnecting"), and the cluster's buttons are off. Started again on the same
 * port: a new run with a new token, which the page cannot resume into — it stops retrying, says
 * the server restarted, and one click opens the new run.
 */
import { expect, test } from "@playwright/test";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

let server: LiveServer | undefined;
test.afterAll(async () => {
  await server?.stop();
});

test("a stopped server is said to be gone; a restarted one is offered as the new run", async ({
  page,
}) => {
  server = await startUp();
  const port = new URL(server.url).port;
  await page.goto(server.url);
  const status = page.getByTestId("connection-status");
  await expect(status).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("action-create")).toBeEnabled();
  // No Foo yet: scale and delete have nothing to act on.
  await expect(page.getByTestId("action-delete")).toBeDisabled();
  // A Foo of this run, selected, and linear time: the URL holds both.
  await page.getByTestId("action-create").click();
  await expect(page).toHaveURL(/foo=/, { timeout: 15_000 });
  await page.keyboard.press("t");
  await expect(page).toHaveURL(/time=linear/);

  await server.stop();
  await expect(status).toHaveText("server not answering · retrying", { timeout: 15_000 });
  await expect(page.getByTestId("action-create")).toBeDisabled();
  await expect(page.getByTestId("action-create")).toHaveAttribute(
    "title",
    "loopscope's server is not connected: no action can reach it",
  );

  server = await startUp(["--port", port]);
  await expect(status).toHaveAttribute("data-status", "replaced", { timeout: 15_000 });
  await expect(status).toHaveText("server restarted");
  await page.screenshot({ path: "test-results/dashboard-server-restarted.png" });
  await page.getByTestId("server-restarted").click();
  await expect(status).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("action-create")).toBeEnabled();
  // The new run from its start: not the old run's Foo over the old run's times; time as chosen.
  await expect(page).not.toHaveURL(/foo=|t0=|t1=/);
  await expect(page).toHaveURL(/time=linear/);
});
