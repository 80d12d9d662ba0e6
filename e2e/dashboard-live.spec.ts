/**
 * Live: `loopscope up` with the embedded cluster and the Foo controller. Creating example-foo from
 * the dashboard (and another Foo with kubectl) fills the five lanes as events arrive; the echo of
 * the controller's own writes is marked self-triggered; the counts and excerpt tell the story.
 * Then the socket is killed and the view resumes from its last seq with no gap.
 */
import { expect, test, type Page, type WebSocketRoute } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { STAGES } from "../packages/trace/src/event.ts";
import { startUp, type LiveServer } from "./dashboard-live-server.ts";

let server: LiveServer;
test.beforeAll(async () => {
  server = await startUp();
});
test.afterAll(async () => {
  await server?.stop();
});

function kubectl(...args: string[]): string {
  return execFileSync("kubectl", args, {
    env: { ...process.env, KUBECONFIG: server.kubeconfig },
    encoding: "utf8",
    input: args.includes("-") ? FOO_YAML : undefined,
  });
}

const FOO_YAML = `apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata:
  name: kubectl-foo
  namespace: default
spec:
  deploymentName: kubectl-foo
  replicas: 1
`;

test.describe.configure({ mode: "serial" });

test("create from the dashboard and with kubectl: lanes fill, self-triggered pass marked, counts and excerpt", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("objects-empty")).toContainText("kubectl apply -f");
  await expect(page.getByTestId("timeline-empty")).toHaveText(
    "No Foos yet: the lanes appear when the controller sees one.",
  );

  // At 1280 and at 1024 px the top bar is two tidy rows: the trace controls on one, the cluster's
  // on the next.
  const top = async (id: string) => (await page.getByTestId(id).boundingBox())!.y;
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 720 });
    const row1 = await top("open-file");
    for (const id of ["samples", "workshop-toggle", "search", "theme", "connection-status"]) {
      expect(Math.abs((await top(id)) - row1), `${width}: ${id}`).toBeLessThan(8);
    }
    const row2 = await top("action-create");
    expect(row2).toBeGreaterThan(row1 + 20);
    for (const id of ["action-scale", "action-delete", "scenario", "action-scenario"]) {
      expect(Math.abs((await top(id)) - row2), `${width}: ${id}`).toBeLessThan(8);
    }
  }
  await page.setViewportSize({ width: 1600, height: 1000 });

  await page.getByTestId("action-create").click();
  const foo = page.getByTestId("object-row").filter({ hasText: "example-foo" });
  await expect(foo).toHaveCount(1);
  await foo.click();
  await expect(
    page
      .locator('[data-testid="timeline-pass"][data-key="default/example-foo"][data-cause="self"]')
      .first(),
  ).toBeAttached();
  const writes = page.locator(
    '[data-testid="count-row"][data-stage="write"] [data-testid="count-observed"]',
  );
  await expect.poll(async () => Number(await writes.textContent())).toBeGreaterThanOrEqual(2);
  const excerpt = page.getByTestId("excerpt");
  for (const stage of STAGES) await expect(excerpt).toContainText(`STAGE/${stage}`);
  await expect(foo.getByTestId("object-state")).toHaveText("quiescent");
  // The API's refusal is said at the end of the cluster's actions' row, which keeps its height
  // (at 1920 px, when that row was the bar's only one, the message used to wrap it), and goes away.
  await page.setViewportSize({ width: 1920, height: 1000 });
  const bar = async () => (await page.locator(".topbar").boundingBox())!.height;
  const barHeight = await bar();
  await page.getByTestId("action-create").click();
  await expect(page.getByTestId("action-error")).toContainText("already exists");
  expect(await bar()).toBe(barHeight);
  await page.getByRole("button", { name: "Dismiss the error" }).click();
  await expect(page.getByTestId("action-error")).toHaveCount(0);
  await page.setViewportSize({ width: 1600, height: 1000 });
  // Following live, the new Foo's creation fills the width — it starts at the window's left
  // edge — rather than sitting at the right edge of a window seconds wide.
  const timeline = page.getByTestId("timeline");
  const span = async () => {
    const [a, b] = (await timeline.getAttribute("data-window"))!.split(" ").map(Number);
    return b - a;
  };
  const creationAt = async () => {
    const [a, b] = (await timeline.getAttribute("data-window"))!.split(" ").map(Number);
    return (Number(await timeline.getAttribute("data-origin")) - a) / (b - a);
  };
  await expect(page.getByTestId("follow")).toHaveAttribute("aria-pressed", "true");
  await expect.poll(creationAt).toBeLessThan(0.1);
  expect(await creationAt()).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/dashboard-live.png" });
  // A pass seconds later (an update of the Foo) joins the view, and the creation stays in it:
  // folded time gives the idle seconds between them no width. (The window used to slide the
  // creation's width along to the newest pass, alone across the lanes.)
  const fooPasses = page.locator('[data-testid="timeline-pass"][data-key="default/example-foo"]');
  const passesBefore = await fooPasses.count();
  await page.waitForTimeout(2000);
  kubectl("annotate", "foo", "example-foo", "e2e/touched=yes");
  await expect.poll(() => fooPasses.count()).toBeGreaterThan(passesBefore);
  await expect.poll(creationAt).toBeGreaterThan(0);
  expect(await creationAt()).toBeLessThan(0.1);

  // On a 1024×700 screen the details stack under the objects, leaving the lanes the width, and
  // the bottom panel gives way, leaving them the height: all five fit without scrolling.
  await page.setViewportSize({ width: 1024, height: 700 });
  const objects = (await page.locator(".panel.objects").boundingBox())!;
  const details = (await page.locator(".panel.details").boundingBox())!;
  expect(Math.abs(details.x - objects.x)).toBeLessThan(2);
  expect(details.y).toBeGreaterThanOrEqual(objects.y + objects.height - 1);
  await expect(page.locator(".timeline-hint")).toHaveCount(0);
  await page.screenshot({ path: "test-results/dashboard-live-1024.png" });
  await page.setViewportSize({ width: 1600, height: 1000 });

  // A zoom that keeps the right edge keeps following, and new passes move that zoom along rather
  // than snapping back to the default window.
  const canvas = (await page.locator('canvas[aria-label^="Timeline"]').boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width - 10, canvas.y + 100);
  const defaultSpan = await span();
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 200);
  await expect.poll(span).toBeGreaterThan(defaultSpan * 1.5);
  const zoomedSpan = await span();
  const passes = page.locator('[data-testid="timeline-pass"][data-key="default/example-foo"]');
  const before = await passes.count();
  await page.getByTestId("action-scale").click();
  await expect.poll(() => passes.count()).toBeGreaterThan(before);
  await page.waitForTimeout(500);
  await expect(page.getByTestId("follow")).toHaveAttribute("aria-pressed", "true");
  expect(Math.abs((await span()) - zoomedSpan)).toBeLessThan(zoomedSpan * 0.01);

  kubectl("apply", "-f", "-");
  const viaKubectl = page.getByTestId("object-row").filter({ hasText: "kubectl-foo" });
  await expect(viaKubectl).toHaveCount(1);
  await viaKubectl.click({ modifiers: ["Control"] });
  await expect(
    page
      .locator('[data-testid="timeline-pass"][data-key="default/kubectl-foo"][data-cause="self"]')
      .first(),
  ).toBeAttached();
  await page.getByTestId("fit").click();
  await page.screenshot({ path: "test-results/dashboard-live-two-foos.png" });

  // The exercise again: delete the Foo, apply it anew. The counts are the new life's, not the
  // sum of both.
  await viaKubectl.click();
  await expect(viaKubectl.getByTestId("object-state")).toHaveText("quiescent");
  const watches = page.locator(
    '[data-testid="count-row"][data-stage="watch"] [data-testid="count-observed"]',
  );
  const firstLife = Number(await watches.textContent());
  expect(firstLife).toBeGreaterThanOrEqual(1);
  const excerptText = async () => (await page.getByTestId("excerpt").textContent()) ?? "";
  const fooAdds = (text: string) =>
    [...text.matchAll(/kind=Foo event=add key=default\/kubectl-foo\b[^\n]*? rv=(\S+)/g)].map(
      (m) => m[1],
    );
  const firstAdds = fooAdds(await excerptText());
  expect(firstAdds).toHaveLength(1);
  kubectl("delete", "foo", "kubectl-foo");
  // The trace cannot tell (sample-controller does not watch Foo deletions); the cluster can.
  await expect(viaKubectl.getByTestId("object-state")).toHaveText("deleted");
  // As the exercise's `sleep 3` does: the Deployment goes with its Foo (garbage collection); one
  // still there would not be the new Foo's, and the new Foo's passes would fail on it until then.
  await expect
    .poll(() => kubectl("get", "deployments", "-o", "name"), { timeout: 15_000 })
    .not.toContain("kubectl-foo");
  kubectl("apply", "-f", "-");
  await expect(viaKubectl.getByTestId("object-state")).toHaveText("quiescent");
  // The excerpt and the counts are the new life's: from its own add (a new resourceVersion) on,
  // without the first life's. (Its rollout's Deployment updates may all have come by now: kubectl
  // blocks this test for as long as they take on a fast machine.)
  await expect
    .poll(async () => fooAdds(await excerptText()))
    .toEqual([expect.not.stringMatching(`^${firstAdds[0]}$`)]);
  const watchLines = (text: string) => text.match(/^watch\s/gm)?.length ?? 0;
  await expect
    .poll(async () => Number(await watches.textContent()) - watchLines(await excerptText()))
    .toBe(0);
  await expect(page.getByTestId("count-reconciles")).toContainText(/\d/);
  await page.getByTestId("fit-creation").click();
  await page.screenshot({ path: "test-results/dashboard-live-recreated.png" });

  // A Foo sample-controller cannot reconcile (no deploymentName): it logs the error and the pass
  // ends "synced"; the table says "error" rather than "quiescent".
  execFileSync("kubectl", ["apply", "-f", "-"], {
    env: { ...process.env, KUBECONFIG: server.kubeconfig },
    input: FOO_YAML.replace("kubectl-foo", "no-name").replace(/\n\s*deploymentName: .*/, ""),
  });
  const noName = page.getByTestId("object-row").filter({ hasText: "no-name" });
  await expect(noName.getByTestId("object-state")).toHaveText("error");
});

test("reconnect: the socket dies, events happen meanwhile, the view resumes with no gap", async ({
  page,
}) => {
  let gateOpen = true;
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/ws/, (ws) => {
    if (!gateOpen) return void ws.close({ code: 1011, reason: "e2e: network down" });
    ws.connectToServer();
    sockets.push(ws);
  });
  await page.goto(server.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  const count = page.getByTestId("event-count");
  await expect.poll(async () => Number(await count.getAttribute("data-count"))).toBeGreaterThan(10);

  // Kill the socket and keep the network down while the cluster changes.
  gateOpen = false;
  const before = Number(await count.getAttribute("data-last-seq"));
  await sockets[0].close({ code: 1011, reason: "e2e: killed" });
  await expect(page.getByTestId("connection-status")).toHaveAttribute(
    "data-status",
    "reconnecting",
  );
  kubectl("patch", "foo", "example-foo", "--type=merge", "-p", '{"spec":{"replicas":2}}');
  await expect.poll(recorded, { timeout: 20_000 }).toBeGreaterThan(before + 3);

  gateOpen = true;
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open", {
    timeout: 15_000,
  });
  await expect(page.getByTestId("connection-status")).toContainText("resumed");
  await resumedWithNoGap(page);
  await page.screenshot({ path: "test-results/dashboard-reconnect.png" });
});

test("a socket that goes silent without closing is given up, and the view resumes with no gap", async ({
  page,
}) => {
  // The first socket stops passing the server's messages on and never closes: what a page sees
  // when the server's process is stopped (Ctrl-Z) or the network under a shared page goes.
  let silent = false;
  let opened = 0;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const first = opened++ === 0;
    const toServer = ws.connectToServer();
    toServer.onMessage((m) => {
      if (!(first && silent)) ws.send(m);
    });
  });
  kubectl("apply", "-f", "-");
  await page.goto(server.url);
  const status = page.getByTestId("connection-status");
  await expect(status).toHaveAttribute("data-status", "open");
  const count = page.getByTestId("event-count");
  await expect.poll(async () => Number(await count.getAttribute("data-count"))).toBeGreaterThan(10);

  silent = true;
  kubectl("patch", "foo", "kubectl-foo", "--type=merge", "-p", '{"spec":{"replicas":3}}');
  // Given up after 15 s of silence (pings every 5 s): a limit for a busy machine, not a claim.
  await expect(status).toContainText("resumed", { timeout: 40_000 });
  await expect(status).toHaveAttribute("data-status", "open");
  expect(opened).toBe(2);
  await resumedWithNoGap(page);
});

/** Events the server has recorded so far. */
const recorded = () => readFileSync(server.recording, "utf8").trim().split("\n").length - 1;

/**
 * No gap, no duplicate: seqs start at 1 and are contiguous, so count === last seq, and the view
 * caught up with everything the server recorded. Events may still arrive: both attributes are read
 * at once, and polled until the view settles; a gap never does.
 */
async function resumedWithNoGap(page: Page): Promise<void> {
  const count = page.getByTestId("event-count");
  const view = async () => {
    const [events, lastSeq] = await count.evaluate((el) => [
      Number(el.getAttribute("data-count")),
      Number(el.getAttribute("data-last-seq")),
    ]);
    return { missing: lastSeq - events, caughtUp: lastSeq >= recorded() };
  };
  await expect.poll(view, { timeout: 15_000 }).toEqual({ missing: 0, caughtUp: true });
}

test("a sample opened on the live dashboard survives a reload, and the way back is one click", async ({
  page,
}) => {
  await page.goto(server.url);
  await expect(page.getByTestId("source")).toHaveText("live · embedded");
  await page.getByTestId("samples").selectOption("hot-loop.jsonl");
  await expect(page.getByTestId("source")).toHaveText("replay · traces/hot-loop.jsonl");
  await expect(page).toHaveURL(/trace=traces%2Fhot-loop\.jsonl/);
  // The cluster's actions are not offered over a trace that is not the cluster's.
  await expect(page.getByTestId("action-create")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("source")).toHaveText("replay · traces/hot-loop.jsonl");
  // By keyboard: the focus goes on from where the button was, not to <body>.
  await page.getByTestId("back-to-live").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("source")).toHaveText("live · embedded");
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "open");
  await expect(page.getByTestId("back-to-live")).toHaveCount(0);
  await expect(page.getByTestId("open-file")).toBeFocused();
  await expect(page).not.toHaveURL(/trace=/);
});
