import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { commandTable } from "./commands/table.ts";

const run = promisify(execFile);
const main = fileURLToPath(new URL("./main.ts", import.meta.url));
const tsx = fileURLToPath(new URL("../../../node_modules/.bin/tsx", import.meta.url));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, [main, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("loopscope CLI dispatcher", () => {
  it("prints a command's usage for --help and exits 0, before the command parses anything", async () => {
    // stats is the lightest command to load; the dispatcher handles --help the same for all.
    for (const args of [
      ["stats", "--help"],
      ["stats", "-h", "--no-such-flag"],
    ]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^usage: loopscope stats\b/);
    }
  }, 120_000);

  it("prints the command list on stdout when asked for it", async () => {
    for (const args of [["--help"], ["help"]]) {
      const r = await cli(args);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toMatch(/^usage: loopscope <command>/);
    }
  }, 120_000);

  it("prints its version for --version, -V and version", async () => {
    const { version } = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    for (const args of [["--version"], ["-V"], ["version"]]) {
      const r = await cli(args);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `loopscope ${version}\n`, ""]);
    }
  }, 120_000);

  it("exits 2 with the command list for no command or an unknown one", async () => {
    for (const args of [[], ["frobnicate"]]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("usage: loopscope <command>");
      for (const name of Object.keys(commandTable)) expect(r.stderr).toContain(name);
    }
  }, 120_000);

  it("ends quietly with 0 when its reader closes the pipe early (`stats --json | head`)", async () => {
    // Output well past a pipe's buffer, so the CLI is still writing when the pipe closes.
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const h = `I1202 09:00:10.${String(i).padStart(6, "0")}   4242 controller.go:1] `;
      lines.push(`${h}STAGE/enqueue key=ns/foo-${i} len=1`, `${h}STAGE/dequeue key=ns/foo-${i}`);
    }
    const file = join(mkdtempSync(join(tmpdir(), "loopscope-epipe-")), "many.log");
    writeFileSync(file, lines.join("\n") + "\n");
    const child = spawn(tsx, [main, "stats", file, "--json"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let first = "";
    child.stdout.once("data", (d: Buffer) => {
      first = d.toString();
      child.stdout.destroy();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(first).toMatch(/^\{\n {2}"format": "klog"/);
    expect([code, stderr]).toEqual([0, ""]);
  }, 120_000);
});
