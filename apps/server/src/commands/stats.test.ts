/**
 * The file commands as a user runs them: `tsx apps/server/src/main.ts stats|excerpt|replay …` in
 * a child process, checking stdout, stderr and the exit code.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loopscope, TSX } from "../testing/file-command.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const STAGE = join(ROOT, "packages/trace/fixtures/stage");

describe("loopscope stats", { timeout: 90_000 }, () => {
  it("prints exactly the documented JSON shape", () => {
    const r = loopscope(["stats", join(STAGE, "create-canonical.log"), "--json", "--year", "2026"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(Object.keys(j)).toEqual([
      "format",
      "lines",
      "events",
      "byStage",
      "keys",
      "findings",
      "diagnostics",
    ]);
    expect(j).toMatchObject({ format: "klog", lines: 55, events: 52 });
    expect(j.byStage).toEqual({ watch: 9, enqueue: 9, dequeue: 7, read: 7, write: 8 });
    expect(j.keys["default/example-foo"]).toEqual({
      byStage: { watch: 9, enqueue: 9, dequeue: 7, read: 7, write: 8 },
      passes: 7,
      passCauses: { external: 4, self: 2, resync: 1, retry: 0, unknown: 0 },
      writes: 8,
      changingWrites: 3,
      noopWrites: 5,
      conflicts: 0,
      reconcilesForCreate: 6,
      listed: false,
      quiescent: true,
      hotLoop: false,
    });
    expect(j.findings).toEqual([]);
    expect(j.diagnostics).toEqual([
      { line: 1, level: "info", message: expect.stringContaining("read as 2026") },
    ]);
  });

  it("says a Foo of the informer's initial list was listed, not created (JSON and table)", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-stats-"));
    const file = join(dir, "listed.log");
    const add = "STAGE/watch kind=Foo event=add key=default/example-foo rv=1001";
    const text = readFileSync(join(STAGE, "create-canonical.log"), "utf8");
    expect(text).toContain(add);
    writeFileSync(file, text.replace(add, `${add} initial=true`));
    const j = JSON.parse(loopscope(["stats", file, "--json", "--year", "2026"]).out);
    expect(j.keys["default/example-foo"]).toMatchObject({ listed: true, reconcilesForCreate: 6 });
    const table = loopscope(["stats", file, "--year", "2026"]).out;
    expect(table).toMatch(/default\/example-foo .* 6 \(listed\) /);
    expect(table).toContain("(listed): the Foo existed before the trace");
  });

  it("reads gzip from stdin and names the hot loop's field", () => {
    const gz = gzipSync(readFileSync(join(STAGE, "hot-loop.log")));
    const r = loopscope(["stats", "-", "--json"], gz);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.keys["default/hot-foo"].hotLoop).toBe(true);
    expect(j.findings).toEqual([
      {
        kind: "hot-loop",
        key: "default/hot-foo",
        detail: expect.stringContaining("status.lastSyncTime"),
        count: expect.any(Number),
        lives: 1,
        fields: ["status.lastSyncTime"],
      },
    ]);
    // The count is the detail's number of passes, as a number.
    const f = j.findings[0];
    expect(f.detail).toMatch(new RegExp(`^${f.count} consecutive passes`));
  });

  it("gives a repeated finding's count as a number, not only in its detail", () => {
    const r = loopscope(["stats", ROOT + "public/traces/hot-loop.jsonl", "--json"]);
    expect(r.code, r.err).toBe(0);
    const conflict = JSON.parse(r.out).findings.find(
      (f: { kind: string }) => f.kind === "conflict",
    );
    expect(conflict).toMatchObject({ count: 6, lives: 1 });
    expect(conflict.detail).toMatch(/ ×6$/);
  });

  it("prints a table by default, and reports bad lines without failing", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-stats-"));
    const file = join(dir, "bad.log.gz");
    const text =
      readFileSync(join(STAGE, "create-canonical.log"), "utf8") +
      "I1202 09:15:00.000000   48211 controller.go:131] STAGE/wacth key=default/example-foo\n" +
      'I1202 09:15:00.000001   48211 controller.go:131] "STAGE/read" key="default/example-foo\n';
    writeFileSync(file, gzipSync(text));
    const r = loopscope(["stats", file]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/default\/example-foo\s+9\s+9\s+7\s+7\s+8\s+7/);
    expect(r.out).toContain('line 56: unknown stage "STAGE/wacth"');
    expect(r.out).toContain("line 57:");
  });

  it("says what the first line's events are, parts adding up to the whole", () => {
    const r = loopscope(["stats", ROOT + "public/traces/create-foo.jsonl"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      "51 events (watch 8 · enqueue 9 · dequeue 8 · read 8 · write 9 · 9 pass ends and notes)",
    );
  });

  it("says a count of one in the singular, as excerpt does", () => {
    const one =
      "I1202 09:00:00.000000    7 controller.go:1] STAGE/watch kind=Foo event=add key=a/b\n";
    const stats = loopscope(["stats", "-"], one);
    expect(stats.code, stats.err).toBe(0);
    expect(stats.out).toContain("-: klog, 1 line, 1 event (watch 1 ·");
    expect(stats.out).toContain("\n1 note or problem:\n  line 1: klog lines carry no year");
    const excerpt = loopscope(["excerpt", "-"], one);
    expect(excerpt.code, excerpt.err).toBe(0);
    expect(excerpt.err).toContain("loopscope excerpt: -: 1 note or problem while reading");
  });

  it("exits 1 with a one-line reason for unreadable input, 2 for usage", () => {
    const missing = loopscope(["stats", "/nonexistent/trace.log"]);
    expect(missing.code).toBe(1);
    expect(missing.err.trim()).toBe("loopscope stats: /nonexistent/trace.log: no such file");
    const binary = loopscope(["stats", "-"], Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    expect(binary.code).toBe(1);
    expect(binary.err).not.toContain("    at ");
    const usage = loopscope(["stats", "--bogus", "x.log"]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("usage: loopscope stats");
  });
});

describe("loopscope excerpt", { timeout: 90_000 }, () => {
  it("prints the first Foo's excerpt as Markdown with counts and the reconcile count", () => {
    const r = loopscope(["excerpt", join(STAGE, "create-spellings.log"), "--format", "md"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("### `default/example-foo` — from creation to quiescent");
    expect(r.out).toContain("| **pass 2** |");
    expect(r.out).toContain(
      "**Tags:** watch 8 · enqueue 8 · dequeue 6 · read 6 · write 7 · pass ends 6",
    );
    expect(r.out).toContain("Reconcile count for one create: 6 passes");
  });

  it("exits 1 for a key the trace does not have (naming those it has), 2 for a bad format", () => {
    const nope = loopscope(["excerpt", join(STAGE, "hot-loop.log"), "--key", "default/nope"]);
    expect(nope.code).toBe(1);
    expect(nope.err).toContain('no events for key "default/nope"; the trace has default/');
    expect(loopscope(["excerpt", join(STAGE, "hot-loop.log"), "--format", "html"]).code).toBe(2);
  });

  it("says on stderr which lines it could not read, as stats does", () => {
    const dir = mkdtempSync(join(tmpdir(), "loopscope-excerpt-"));
    const damaged = join(dir, "damaged.jsonl");
    const lines = readFileSync(join(ROOT, "public/traces/create-foo.jsonl"), "utf8").split("\n");
    lines.splice(5, 0, "{this is not json");
    writeFileSync(damaged, lines.join("\n"));
    const r = loopscope(["excerpt", damaged]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Reconcile count for one create");
    expect(r.err).toContain("loopscope excerpt: ");
    expect(r.err).toContain("  line 6: ");
  });
});

describe("loopscope convert from stdin", { timeout: 90_000 }, () => {
  it("writes OUT from a piped log (its OUT check once lost what stdin sent meanwhile)", () => {
    const out = join(mkdtempSync(join(tmpdir(), "loopscope-convert-stdin-")), "trace.json");
    const log = readFileSync(join(ROOT, "public/traces/create-foo.klog.log"));
    const r = loopscope(["convert", "-", "--to", "chrome", "-o", out], log);
    expect([r.code, r.err]).toEqual([0, expect.stringContaining("-: 63 events (klog)")]);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("traceEvents");
  });
});

describe("stats and replay on a file with no trace in it", { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "loopscope-notrace-"));
  const empty = join(dir, "empty.log");
  writeFileSync(empty, "");
  const TRACES = join(ROOT, "public/traces");
  const NO_STAGE =
    "has no STAGE events (not a loopscope JSONL trace or a klog log of the controller)";
  const exported = (what: string, source: string) =>
    `is ${what} that loopscope convert made from ${source}: open that file` +
    (what === "a Chrome trace export"
      ? ", or make a trace of this one with loopscope convert FILE --to jsonl"
      : "");

  it("stats exits 1 with one line saying what the file is", () => {
    for (const [file, why] of [
      [empty, "is empty"],
      ["README.md", NO_STAGE],
      [
        "public/traces/create-foo.chrome.json",
        exported("a Chrome trace export", "create-foo.jsonl"),
      ],
      ["public/traces/create-foo.otlp.json", exported("an OTLP/JSON export", "create-foo.jsonl")],
    ]) {
      const r = loopscope(["stats", file]);
      expect(r.code, file).toBe(1);
      expect(r.out, file).toBe("");
      expect(r.err, file).toBe(`loopscope stats: ${file} ${why}\n`);
    }
  });

  it("replay exits 1 with one line and starts no dashboard", () => {
    for (const [file, why] of [
      [join(ROOT, "README.md"), NO_STAGE],
      [join(TRACES, "hot-loop.chrome.json"), exported("a Chrome trace export", "hot-loop.jsonl")],
    ]) {
      const r = loopscope(["replay", file, "--no-build", "--port", "0"]);
      expect(r.code, file).toBe(1);
      expect(r.out, file).toBe("");
      expect(r.err, file).toBe(`loopscope: ${file} ${why}\n`);
    }
    const folder = loopscope(["replay", dir, "--no-build", "--port", "0"]);
    expect([folder.code, folder.err]).toEqual([1, `loopscope: ${dir}: is a directory\n`]);
  });
});

// A shell's `<(cat f)` hands the command /dev/fd/63, a pipe; `mkfifo` makes a named one. Both
// give their bytes once and cannot be read at an offset: they used to fail with ESPIPE.
describe("file commands read pipes and FIFOs", { timeout: 90_000 }, () => {
  const LOG = join(STAGE, "create-canonical.log");
  const bash = (script: string) => {
    const r = spawnSync("bash", ["-c", script], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", TSX, LOG },
      timeout: 60_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const direct = loopscope(["stats", LOG, "--json", "--year", "2026"]);

  it("stats reads <(cat FILE) and <(gzip -c FILE) as it reads FILE", () => {
    for (const source of ['<(cat "$LOG")', '<(gzip -c "$LOG")']) {
      const r = bash(`"$TSX" apps/server/src/main.ts stats ${source} --json --year 2026`);
      expect(r.err).not.toContain("ESPIPE");
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toEqual(JSON.parse(direct.out));
    }
  });

  it("excerpt and convert read a FIFO that a writer fills", () => {
    const fifo = join(mkdtempSync(join(tmpdir(), "loopscope-fifo-")), "trace.fifo");
    const run = (args: string) =>
      bash(
        `mkfifo "${fifo}"; (cat "$LOG" > "${fifo}" &); "$TSX" apps/server/src/main.ts ${args}; s=$?; rm -f "${fifo}"; exit $s`,
      );
    const excerpt = run(`excerpt "${fifo}" --year 2026 --format md`);
    expect(excerpt.code, excerpt.err).toBe(0);
    expect(excerpt.out).toBe(loopscope(["excerpt", LOG, "--year", "2026", "--format", "md"]).out);
    const converted = run(`convert "${fifo}" --to jsonl --year 2026`);
    expect(converted.code, converted.err).toBe(0);
    // The same events as from the file; the header names the source it was read from.
    const fromFile = loopscope(["convert", LOG, "--to", "jsonl", "--year", "2026"]);
    const events = (out: string) => out.trim().split("\n").slice(1);
    expect(events(converted.out)).toEqual(events(fromFile.out));
    expect(events(converted.out)).toHaveLength(52);
  });

  it('replay reads "-" (stdin) as it reads a pipe, and serves it', async () => {
    const child = spawn(
      TSX,
      ["apps/server/src/main.ts", "replay", "-", "--no-build", "--port", "0"],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    const closed = once(child, "close");
    let out = "";
    let err = "";
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    const started = new Promise<boolean>((resolve) => {
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        if (out.includes("dashboard  http://")) resolve(true);
      });
      child.once("exit", () => resolve(false));
    });
    child.stdin.on("error", () => {}); // EPIPE, if it stopped without reading
    child.stdin.end(readFileSync(join(ROOT, "public/traces/create-foo.jsonl")));
    const served = await started;
    child.kill("SIGTERM");
    await closed;
    expect([served, err]).toEqual([
      true,
      expect.stringContaining("loopscope: -: 51 events (jsonl)\n"),
    ]);
  });
});
