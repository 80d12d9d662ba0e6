/**
 * The dashboard server's defences, seen from a real browser: a page on another origin cannot
 * open the stream or act even when it holds the owner token; the --share URL watches live and
 * cannot act. `loopscope up --share` runs in its own process group.
 */
import { expect, test } from "@playwright/test";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./dashboard-harness.ts";

interface Up {
  url: string;
  shareUrl: string;
  kubeconfig: string;
  child: ChildProcess;
}

let up: Up;
let evil: Server;
let evilUrl: string;

test.beforeAll(async () => {
  // Starting tsx, the API server and the controller is slow on a busy machine.
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), "loopscope-e2e-sec-"));
  const child = spawn(
    "pnpm",
    [
      "--silent",
      "loopscope",
      "up",
      "--port",
      "0",
      "--share",
      "--no-build",
      "--resync",
      "0",
      "--record",
      join(dir, "run.jsonl"),
    ],
    { cwd: REPO, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  up = await new Promise<Up>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL:\n${out}\n${err}`)), 100_000);
    child.once("exit", (code) => reject(new Error(`loopscope up exited ${code}:\n${err}`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /^dashboard\s+(\S+)/m.exec(out)?.[1];
      const shareUrl = /^read-only\s+(\S+)/m.exec(out)?.[1];
      const kubeconfig = /export KUBECONFIG=(\S+)/m.exec(out)?.[1];
      if (url && shareUrl && kubeconfig) {
        clearTimeout(timer);
        resolve({ url, shareUrl, kubeconfig, child });
      }
    });
  });
  evil = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>elsewhere</title>");
  });
  await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
  evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
});

test.afterAll(async () => {
  evil?.close();
  if (up?.child.exitCode === null) {
    const exited = new Promise((r) => up.child.once("exit", r));
    process.kill(-up.child.pid!, "SIGINT");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    try {
      process.kill(-up.child.pid!, "SIGKILL");
    } catch {
      // the group is gone
    }
  }
});

const foos = () =>
  execFileSync("kubectl", ["--kubeconfig", up.kubeconfig, "get", "foos", "-o", "name"], {
    encoding: "utf8",
  }).trim();

test("a page on another origin cannot open the stream or act, even with the owner token", async ({
  page,
}) => {
  const ownerPage = await (await fetch(up.url)).text();
  const token = /name="loopscope-token" content="([^"]+)"/.exec(ownerPage)![1];
  await page.goto(evilUrl);
  const result = await page.evaluate(
    async ({ base, token }) => {
      const ws = await new Promise<string>((resolve) => {
        const s = new WebSocket(`${base.replace(/^http/, "ws")}ws?token=${token}`);
        s.onopen = () => resolve("open");
        s.onerror = () => resolve("refused");
      });
      const post = await fetch(`${base}api/action`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-loopscope-token": token },
        body: JSON.stringify({ action: "createFoo", name: "from-elsewhere" }),
      }).then(
        (r) => `status ${r.status}`,
        () => "blocked",
      );
      // A "simple" request needs no preflight: the server itself must refuse it.
      const simple = await fetch(`${base}api/action`, {
        method: "POST",
        mode: "no-cors",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ action: "createFoo", name: "from-elsewhere-2" }),
      }).then(
        () => "sent",
        () => "blocked",
      );
      return { ws, post, simple };
    },
    { base: up.url, token },
  );
  expect(result.ws).toBe("refused");
  expect(result.post).toBe("blocked");
  expect(foos()).not.toContain("from-elsewhere");
});

test("the share URL watches live and cannot act", async ({ page }) => {
  await page.goto(up.shareUrl);
  const share = new URL(up.shareUrl).searchParams.get("share")!;
  await expect(page.locator('meta[name="loopscope-token"]')).toHaveAttribute("content", share);
  const info = await page.evaluate(async (t) => {
    const r = await fetch("api/info", { headers: { "x-loopscope-token": t } });
    return (await r.json()) as { readOnly: boolean };
  }, share);
  expect(info.readOnly).toBe(true);
  // The page says so, and offers no cluster actions.
  await expect(page.getByTestId("read-only")).toBeVisible();
  await expect(page.getByTestId("action-create")).toHaveCount(0);
  const action = await page.evaluate(async (t) => {
    const r = await fetch("api/action", {
      method: "POST",
      headers: { "content-type": "application/json", "x-loopscope-token": t },
      body: JSON.stringify({ action: "createFoo", name: "shared-viewer" }),
    });
    return r.status;
  }, share);
  expect(action).toBe(403);
  // Watching works: a Foo made with kubectl reaches the share page's own stream.
  const watching = page.evaluate(
    (t) =>
      new Promise<string[]>((resolve) => {
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws?token=${t}`);
        const stages: string[] = [];
        ws.onopen = () => ws.send(JSON.stringify({ type: "resume", since: 0 }));
        ws.onmessage = (m) => {
          const msg = JSON.parse(m.data as string) as {
            type: string;
            events?: { key: string; stage: string }[];
          };
          for (const e of msg.events ?? []) if (e.key === "default/watched") stages.push(e.stage);
          if (stages.includes("write")) resolve(stages);
        };
      }),
    share,
  );
  execFileSync("kubectl", ["--kubeconfig", up.kubeconfig, "apply", "-f", "-"], {
    input: `apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata: { name: watched, namespace: default }
spec: { deploymentName: watched, replicas: 1 }
`,
  });
  expect(await watching).toEqual(
    expect.arrayContaining(["watch", "enqueue", "dequeue", "read", "write"]),
  );
  expect(foos()).not.toContain("shared-viewer");
  // The page writes what it shows into its address; the share token stays in it, so a reload
  // (or the address passed on) is the same read-only page.
  await page.getByRole("option", { name: /watched/ }).click();
  await expect.poll(() => page.url()).toContain("foo=default%2Fwatched");
  expect(new URL(page.url()).searchParams.get("share")).toBe(share);
  await page.reload();
  await expect(page.locator('meta[name="loopscope-token"]')).toHaveAttribute("content", share);
  await expect(page.getByTestId("read-only")).toBeVisible();
  await expect(page.getByRole("option", { name: /watched/ })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});
