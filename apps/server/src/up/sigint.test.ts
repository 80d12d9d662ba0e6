/**
 * The real CLI in its own process: `loopscope up --port 0`, a Foo applied with kubectl, then
 * SIGINT. It must exit 0 and leave a complete trace file.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { readTraceText } from "@loopscope/trace";
import { REPO_ROOT } from "./web-build.ts";

const BIN = join(REPO_ROOT, "apps", "server", "bin", "loopscope.mjs");
const MANIFEST = join(REPO_ROOT, "public", "manifests", "example-foo.yaml");

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-sigint-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A generous limit, not a speed claim: a cold tsx start on a busy 2-core machine is slow.
it(
  "SIGINT to `loopscope up` leaves a complete, readable trace and exits 0",
  { timeout: 120_000 },
  async () => {
    const child = spawn(
      process.execPath,
      [BIN, "up", "--port", "0", "--no-build", "--resync", "0"],
      {
        cwd: dir,
        env: { ...process.env, HOME: dir },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    try {
      const kubeconfig = await vi.waitFor(
        () => {
          const m = /export KUBECONFIG=(\S+)/.exec(stdout);
          if (!m) throw new Error(`not up yet: ${stderr}`);
          return m[1];
        },
        { timeout: 90_000, interval: 50 },
      );
      expect(stdout).toMatch(/^dashboard {2}http:\/\/127\.0\.0\.1:\d+\/$/m);
      const recording = join(dir, /recording {2}(\S+)/.exec(stdout)![1]);
      expect(recording).toMatch(/runs\/[\dT-]+Z\.jsonl$/);
      await promisify(execFile)("kubectl", ["--kubeconfig", kubeconfig, "apply", "-f", MANIFEST]);
      // Wait until the controller has finished a pass: its "done" line is on disk (not yet closed).
      await vi.waitFor(
        async () => expect(await readFile(recording, "utf8")).toContain('"outcome":"synced"'),
        { timeout: 20_000, interval: 50 },
      );
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/stopped; \d+ events recorded/);
      const text = await readFile(recording, "utf8");
      expect(text.endsWith("\n")).toBe(true);
      const { events, reader } = readTraceText(text);
      expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
      expect(events.length).toBeGreaterThan(5);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(Number(/stopped; (\d+) events/.exec(stderr)![1])).toBe(events.length);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  },
);

// The README's way in: `pnpm loopscope up` in a terminal, stopped with Ctrl-C. The terminal sends
// SIGINT to its foreground process group — pnpm's — while pnpm runs the script in a process
// group of its own: the signal must still reach the server, and nothing may be left running.
it(
  "Ctrl-C in the terminal that ran `pnpm loopscope up` stops everything it started",
  { timeout: 120_000 },
  async () => {
    const record = join(dir, "pnpm-up.jsonl");
    const child = spawn(
      "pnpm",
      ["loopscope", "up", "--port", "0", "--no-build", "--resync", "0", "--record", record],
      // detached: a process group of its own, led by pnpm, as a terminal's foreground job is.
      {
        cwd: REPO_ROOT,
        env: { ...process.env, HOME: dir },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      },
    );
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const running = () =>
      promisify(execFile)("pgrep", ["-f", record]).then(
        (r) => r.stdout.trim().split("\n").filter(Boolean),
        () => [] as string[],
      );
    try {
      await vi.waitFor(
        () => {
          if (!out.includes("Ctrl-C to stop")) throw new Error(`not up yet: ${out}`);
        },
        { timeout: 90_000, interval: 50 },
      );
      expect((await running()).length).toBeGreaterThan(0);
      process.kill(-child.pid!, "SIGINT");
      await exited;
      await vi.waitFor(async () => expect(await running()).toEqual([]), {
        timeout: 10_000,
        interval: 100,
      });
      expect(out).toMatch(/stopped; \d+ events recorded/);
    } finally {
      for (const pid of await running()) process.kill(Number(pid), "SIGKILL");
    }
  },
);
