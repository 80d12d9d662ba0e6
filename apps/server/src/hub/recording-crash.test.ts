/**
 * A recording must stay readable when its process dies mid-write (SIGKILL): everything flushed
 * is there, in order, and at worst one torn last line, which the reader reports and skips.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { readTraceText } from "@loopscope/trace";

it(
  "survives SIGKILL mid-run: flushed events all readable, in order",
  { timeout: 60_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "loopscope-crash-"));
    const file = join(dir, "crash.jsonl");
    const fixture = fileURLToPath(new URL("./crash-writer.fixture.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", fixture, file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let flushed = 0;
    child.stdout.on("data", (b: Buffer) => {
      const lines = b.toString().trim().split("\n");
      flushed = Math.max(flushed, Number(lines.at(-1)));
    });
    try {
      await vi.waitFor(() => expect(flushed).toBeGreaterThan(5000), {
        timeout: 20_000,
        interval: 20,
      });
      const reported = flushed;
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const { events, reader } = readTraceText(await readFile(file, "utf8"));
      expect(reader.diagnostics.filter((d) => d.level === "error")).toEqual([]);
      expect(events.length).toBeGreaterThanOrEqual(reported);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    } finally {
      child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  },
);
