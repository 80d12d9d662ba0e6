/**
 * `loopscope replay FILE` with a trace bigger than one WebSocket catch-up (20k events): the page
 * reads the served trace in the replay workers, as it would a dropped file (not parsed and
 * analysed on its own thread), and shows what `loopscope stats` says about the same file.
 */
import { expect, test } from "@playwright/test";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./dashboard-harness.ts";

const EVENTS = 30_000;
const BROKEN_LINE = 1234;
let file: string;
let server: ChildProcess | undefined;
let url: string;

test.describe.configure({ timeout: 120_000 });

test.beforeAll(async () => {
  file = join(mkdtempSync(join(tmpdir(), "loopscope-e2e-replay-")), "controller.log");
  execFileSync(
    "pnpm",
    ["--silent", "gen", "--events", String(EVENTS), "--format", "klog", "--foos", "40", "-o", file],
    { cwd: REPO, stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 },
  );
  // One line the server's reader cannot use: the page lists it as a dropped file's would be.
  // Its klog header is the next line's, so its time does not go back (a diagnostic of its own).
  const lines = readFileSync(file, "utf8").split("\n");
  const next = lines[BROKEN_LINE - 1];
  lines.splice(BROKEN_LINE - 1, 0, next.slice(0, next.indexOf("] ") + 2) + "STAGE/enqueue");
  writeFileSync(file, lines.join("\n"));
  server = spawn("pnpm", ["--silent", "loopscope", "replay", file, "--port", "0", "--no-build"], {
    cwd: REPO,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no dashboard URL:\n${out}`)), 45_000);
    server!.once("exit", (code) => reject(new Error(`loopscope replay exited ${code}`)));
    server!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^dashboard\s+(\S+)/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
});

test.afterAll(() => {
  try {
    if (server?.pid) process.kill(-server.pid, "SIGKILL");
  } catch {
    // already gone
  }
});

test("a replayed trace past one catch-up loads in the workers and agrees with `loopscope stats`", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Hold the trace back: until it comes, the load bar already says how many events are coming.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/trace\b/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url);
  await expect(page.getByTestId("load-progress")).toContainText(
    `0 of ${EVENTS.toLocaleString("en-US")} events`,
  );
  release();
  const count = page.getByTestId("event-count");
  await expect(count).toHaveAttribute("data-count", String(EVENTS), { timeout: 60_000 });
  await expect(count).toHaveAttribute("data-last-seq", String(EVENTS));
  // Set when the replay workers have put every event in the store and the analysis.
  expect(await page.evaluate(() => performance.getEntriesByName("loopscope:loaded").length)).toBe(
    1,
  );
  // A replay, not a live run: no "live · none", nothing to follow.
  await expect(page.getByTestId("source")).toHaveText("replaying controller.log");
  await expect(page.getByTestId("follow")).toHaveCount(0);
  // … and no cluster to act on: no row of disabled cluster buttons.
  await expect(page.getByTestId("action-create")).toHaveCount(0);
  await expect(page.getByRole("toolbar", { name: "Cluster actions" })).toHaveCount(0);

  const stats = JSON.parse(
    execFileSync("pnpm", ["--silent", "loopscope", "stats", file, "--json"], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 60_000,
    }),
  ) as { keys: Record<string, { passes: number; passCauses: { self: number } }> };
  const keys = Object.keys(stats.keys).length;
  await expect(page.getByTestId("object-row").first()).toHaveAttribute(
    "aria-setsize",
    String(keys),
  );
  const rows = page.getByTestId("object-row");
  for (const i of [0, 3, 9]) {
    const key = (await rows.nth(i).getAttribute("data-key"))!;
    const cells = await rows.nth(i).locator("td").allTextContents();
    expect(stats.keys[key], key).toBeDefined();
    expect(Number(cells[1]), `${key} passes`).toBe(stats.keys[key].passes);
    expect(Number(cells[2]), `${key} self-triggered`).toBe(stats.keys[key].passCauses.self);
  }

  // The served klog file's lines stay in it: the page asks the server for those it shows.
  const fileLines = new Set(readFileSync(file, "utf8").split("\n"));
  await page.getByTestId("step-next").click();
  const raw = page.getByTestId("event-raw");
  await expect(raw).toHaveText(/STAGE\//);
  expect(fileLines.has((await raw.textContent())!)).toBe(true);
  await expect(page.getByTestId("excerpt")).toContainText('"Successfully synced"');
  // The file rewritten in place (the controller run into it again): the next line says so,
  // not the new file's text at the old offset.
  writeFileSync(file, readFileSync(file, "utf8").replace(/^I/gm, "W"));
  await page.getByTestId("step-next").click();
  await expect(raw).toHaveText(
    "(this line can no longer be read: controller.log was rewritten since loopscope replay read it: its lines are no longer this trace's (restart replay to read it again))",
  );

  // What the server could not read is in the Diagnostics tab, by line, with its note on the
  // klog year.
  await expect(page.getByTestId("tab-diagnostics")).toHaveText("Diagnostics (2)");
  await page.getByTestId("tab-diagnostics").click();
  await expect(page.getByTestId("diagnostic").nth(1)).toContainText(
    `line ${BROKEN_LINE} STAGE/enqueue without a key`,
  );
  await expect(page.getByTestId("diagnostic").nth(0)).toHaveAttribute("data-level", "info");
  await expect(page.getByTestId("diagnostics-summary")).toHaveText(
    "1 line could not be read; everything else loaded.",
  );

  // The filter's Enter selects its first match: the lanes follow the list.
  await page.getByTestId("search").fill("foo-17");
  await page.getByTestId("search").press("Enter");
  const only = page.getByTestId("object-row");
  await expect(only).toHaveCount(1);
  await expect(only).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/foo=ns-\d+%2Ffoo-17\b/);
  await page.getByTestId("search").fill("");

  // The workshop's compare calls the open trace by its file, not by the stream it came over.
  await page.getByTestId("workshop-toggle").click();
  await page.getByTestId("workshop-tab-compare").click();
  await expect(page.getByTestId("workshop")).toContainText("Compare controller.log with");
  expect(errors).toEqual([]);
});
