/**
 * The file commands on the shapes real logs take, as a user runs them (`tsx
 * apps/server/src/main.ts` in a child process; the replay's loader in process): an unpatched
 * controller's log, whose conflicts show only in its "Error syncing" lines, a log as Docker's
 * json-file driver keeps it, and a log written across a crash, with runs of NUL bytes in it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loopscope } from "../testing/file-command.ts";
import { loadTrace } from "../dashboard/replay-backend.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

describe("loopscope stats on real log shapes", { timeout: 90_000 }, () => {
  it("counts an unpatched controller's 'Error syncing … the object has been modified' as a conflict", () => {
    const r = loopscope(["stats", "e2e/fixtures/unpatched-exercise.log", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.keys["default/example-foo"]).toMatchObject({ passes: 6, conflicts: 1 });
    expect(j.findings.map((f: { kind: string }) => f.kind)).toEqual(["conflict", "retry"]);
  });
});

describe("a log as Docker's json-file driver keeps it", { timeout: 90_000 }, () => {
  const STAGE = "packages/trace/fixtures/stage/";
  const DOCKER = STAGE + "create-docker-json.log";
  const PLAIN = STAGE + "create-canonical.log";

  it("stats, excerpt and convert read it as the klog log its records hold", () => {
    const docker = loopscope(["stats", DOCKER, "--json"]);
    expect(docker.code, docker.err).toBe(0);
    const j = JSON.parse(docker.out);
    const plain = JSON.parse(loopscope(["stats", PLAIN, "--json", "--year", "2026"]).out);
    expect(j.format).toBe("docker-json");
    expect({ keys: j.keys, findings: j.findings }).toEqual({
      keys: plain.keys,
      findings: plain.findings,
    });
    // The year from the records' time, not the current one.
    expect(j.diagnostics[0].message).toContain("read as 2026 (from the timestamp");
    const excerpt = loopscope(["excerpt", DOCKER]);
    expect(excerpt.code, excerpt.err).toBe(0);
    expect(excerpt.out).toBe(loopscope(["excerpt", PLAIN, "--year", "2026"]).out);
    const convert = loopscope(["convert", DOCKER, "--to", "jsonl", "-o", "-"]);
    expect(convert.code, convert.err).toBe(0);
    expect(convert.out.trim().split("\n")).toHaveLength(1 + 52);
  });

  it("replay loads it, each event keeping its line (the file's lines are JSON records)", async () => {
    const loaded = await loadTrace(join(ROOT, DOCKER));
    expect(loaded.format).toBe("docker-json");
    expect(loaded.hub.lastSeq).toBe(52);
    expect(loaded.lines).toBeUndefined();
    const [first] = await loaded.hub.range(1, 1);
    expect(first.raw).toBe(
      '2026-12-02T09:14:05.912038100Z I1202 09:14:05.912001       1 controller.go:126] "Setting up event handlers"',
    );
  });
});

/**
 * create-canonical.log as a crash leaves it: the file begins with a run of NULs (space the file
 * system gave it, never written), and further down a line is cut short by another run, the next
 * line written right after it. Lines 1 and 11 hold the NULs; line 11's first part is lost.
 */
function crashedLog(): { file: string; clean: string } {
  const clean = join(ROOT, "packages/trace/fixtures/stage/create-canonical.log");
  const lines = readFileSync(clean).toString("latin1").split("\n");
  const nuls = (n: number) => "\0".repeat(n);
  lines[0] = nuls(8192) + lines[0];
  lines[10] = lines[10].slice(0, 50) + nuls(3000) + lines[11];
  lines.splice(11, 1);
  const dir = mkdtempSync(join(tmpdir(), "loopscope-nul-"));
  const file = join(dir, "crashed.log");
  writeFileSync(file, Buffer.from(lines.join("\n"), "latin1"));
  return { file, clean };
}

describe("a log with NUL bytes in it", { timeout: 90_000 }, () => {
  const { file, clean } = crashedLog();

  it("stats reads it line by line and names the lines with NULs", () => {
    const crashed = loopscope(["stats", file, "--json", "--year", "2026"]);
    expect(crashed.code).toBe(0);
    const j = JSON.parse(crashed.out);
    const whole = JSON.parse(loopscope(["stats", clean, "--json", "--year", "2026"]).out);
    // One line, cut short by the NULs, is lost: its event; every other is read.
    expect(j.events).toBe(whole.events - 1);
    expect(j.keys["default/example-foo"].passes).toBe(whole.keys["default/example-foo"].passes);
    const nul = j.diagnostics.filter((d: { message: string }) => d.message.includes("NUL"));
    expect(nul).toEqual([
      { line: 1, level: "warn", message: expect.stringContaining("8192 NUL bytes") },
      { line: 11, level: "warn", message: expect.stringContaining("cut short, were not read") },
    ]);
  });

  it("excerpt reads it and says which lines held NULs", () => {
    const r = loopscope(["excerpt", file, "--year", "2026"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("default/example-foo");
    expect(r.err).toMatch(/ {2}line 1: 8192 NUL bytes/);
  });

  it("replay loads it, with its diagnostics", async () => {
    const loaded = await loadTrace(file, 2026);
    expect(loaded.hub.lastSeq).toBeGreaterThan(40);
    expect(loaded.diagnostics.map((d) => d.line)).toEqual(expect.arrayContaining([1, 11]));
  });

  it("wholly binary input is still refused with its one-line reason", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-bin-"));
    const zeros = join(dir, "zeros.img");
    writeFileSync(zeros, Buffer.alloc(100_000));
    const noise = join(dir, "noise.bin");
    writeFileSync(noise, Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919) % 256)));
    for (const f of [zeros, noise]) {
      const r = loopscope(["stats", f]);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`loopscope stats: ${f} is not a text file (binary data)\n`);
    }
  });
});

describe("a file of one line over the length limit", { timeout: 90_000 }, () => {
  it("says the line is over the limit, not that the file is empty", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-long-"));
    const file = join(dir, "one-line.log");
    writeFileSync(file, Buffer.alloc(65 * 1024 * 1024, "a"));
    const r = loopscope(["stats", file]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `loopscope stats: ${file} holds no trace: line 1 is over the 64 MiB limit\n`,
    );
  });
});
