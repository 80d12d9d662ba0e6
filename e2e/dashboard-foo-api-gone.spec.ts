/**
 * Live on the embedded cluster whose Foo CRD is deleted mid-run: the top bar's badge says "Foo
 * API gone" in the error colour, its tooltip since when and how to bring it back — also on a page
 * opened meanwhile — the cluster's buttons off with the reason, the empty objects panel telling the
 * CRD first, and "connected" again (the buttons on) once the CRD is created again.
 */
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { FOO_CRD } from "../packages/apiserver/src/index.ts";
import { FOO_API_GONE } from "../packages/protocol/src/index.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

let server: LiveServer;
let api: string;
test.beforeAll(async () => {
  server = await startUp();
  api = /server: "?([^"\s]+)/.exec(readFileSync(server.kubeconfig, "utf8"))![1]!;
});
test.afterAll(async () => {
  await server?.stop();
});

test("the badge says the Foo API is gone while its CRD is, and connected once it is back", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url);
  const badge = page.getByTestId("connection-status");
  await expect(badge).toHaveText("connected");
  await expect(badge).toHaveAttribute("data-foo-api", "served");

  const deleted = await fetch(`${api}${CRDS}/${FOO_CRD.metadata.name}`, { method: "DELETE" });
  expect(deleted.status).toBe(200);
  // Generous: a limit, not a speed claim.
  await expect(badge).toHaveText("Foo API gone", { timeout: 20_000 });
  await expect(badge).toHaveAttribute("data-foo-api", "gone");
  await expect(badge).toHaveAttribute(
    "title",
    /^The cluster has not served foos\.samplecontroller\.k8s\.io since \d\d:\d\d:\d\d: was the CRD deleted\?.* kubectl apply -f public\/manifests\/crd\.yaml brings it back/,
  );
  const errorColour = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--bad-text").trim(),
  );
  await expect(badge).toHaveCSS("color", hexToRgb(errorColour));

  // What needs the Foo API says so, not a 404 after a click.
  const create = page.getByTestId("action-create");
  await expect(create).toBeDisabled();
  await expect(create).toHaveAttribute("title", FOO_API_GONE);
  await expect(page.getByTestId("objects-empty")).toContainText(
    "the Foo API is gone from the cluster (its CRD was deleted). Bring it back first",
  );

  // A page opened meanwhile shows it from the start.
  await page.reload();
  await expect(badge).toHaveText("Foo API gone");
  await expect(create).toBeDisabled();

  const created = await fetch(`${api}${CRDS}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(FOO_CRD),
  });
  expect(created.status).toBe(201);
  // The Foo informer's next retry (its backoff is up to a few seconds by now) finds it.
  await expect(badge).toHaveText("connected", { timeout: 30_000 });
  await expect(badge).toHaveAttribute("data-foo-api", "served");
  await expect(badge).not.toHaveAttribute("title");
  await expect(create).toBeEnabled();
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
