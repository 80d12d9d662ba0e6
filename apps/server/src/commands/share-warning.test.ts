/**
 * `--share` on the loopback address (no `--host`) prints a link nobody else can open: `replay`
 * and `up` say so on stderr next to it; with `--host` on a network address they do not. Real
 * processes; replay also takes its trace from a pipe (`<(cat f)`).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "../up/web-build.ts";
import { spawnUp } from "../testing/up-process.ts";

const TSX = join(REPO_ROOT, "node_modules/.bin/tsx");
const TRACE = join(REPO_ROOT, "public", "traces", "create-foo.klog.log");
const WARNING = "warning: --share: the read-only link opens only on this machine";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "loopscope-share-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs `bash -c script` until its stdout has the read-only line; returns both streams. */
async function served(script: string): Promise<{ out: string; err: string }> {
  const child = spawn("bash", ["-c", script], {
    cwd: dir,
    env: { ...process.env, TSX, TRACE, MAIN: join(REPO_ROOT, "apps/server/src/main.ts") },
    detached: true,
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  try {
    await vi.waitFor(
      () => {
        expect(child.exitCode, err).toBeNull();
        expect(out).toMatch(/^read-only {2}http:\S+share=\S+$/m);
        // The warning, when it comes, follows the link at once.
        expect(err).toContain("loopscope: ");
      },
      { timeout: 60_000, interval: 100 },
    );
    await new Promise((r) => setTimeout(r, 300));
    return { out, err };
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  }
}

describe("--share", { timeout: 120_000 }, () => {
  it("replay on 127.0.0.1 warns that the link opens only on this machine", async () => {
    const r = await served(
      'exec "$TSX" "$MAIN" replay <(cat "$TRACE") --share --port 0 --no-build',
    );
    expect(r.err).toContain("events (klog)");
    expect(r.err).toContain(WARNING);
  });

  it("replay with --host 0.0.0.0 does not", async () => {
    const r = await served(
      'exec "$TSX" "$MAIN" replay "$TRACE" --share --host 0.0.0.0 --port 0 --no-build',
    );
    expect(r.err).not.toContain(WARNING);
  });

  it("up warns too", async () => {
    const up = await spawnUp(["--share", "--record", join(dir, "run.jsonl")], dir);
    try {
      await vi.waitFor(() => expect(up.stderr()).toContain(WARNING), { timeout: 10_000 });
      expect(up.stdout()).toMatch(/^read-only {2}http:/m);
    } finally {
      up.kill();
    }
  });
});
