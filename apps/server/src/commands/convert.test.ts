import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { otlpProblems, chromeEventProblem, readTraceText, type TraceEvent } from "@loopscope/trace";
import { run } from "./convert.ts";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const KLOG = join(REPO, "public", "traces", "create-foo.klog.log");
const JSONL = join(REPO, "public", "traces", "create-foo.jsonl");

let dir: string;
let stderr: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loopscope-convert-"));
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Without the fields that say which file and line an event was read from. */
function portable(events: TraceEvent[]): unknown[] {
  return events.map(({ raw: _raw, line: _line, ...rest }) => rest);
}

describe("loopscope convert", () => {
  it("klog → chrome → jsonl keeps every event, its key, fields and order", async () => {
    const chrome = join(dir, "trace.json");
    const back = join(dir, "back.jsonl");
    expect(await run([KLOG, "--to", "chrome", "-o", chrome, "--year", "2026"])).toBe(0);
    const doc = JSON.parse(readFileSync(chrome, "utf8")) as { traceEvents: unknown[] };
    for (const ev of doc.traceEvents) expect(chromeEventProblem(ev)).toBeUndefined();
    expect(await run([chrome, "--to", "jsonl", "-o", back])).toBe(0);

    const original = readTraceText(readFileSync(KLOG, "utf8"), { year: 2026 }).events;
    const roundTrip = readTraceText(readFileSync(back, "utf8")).events;
    expect(original.length).toBeGreaterThan(10);
    expect(roundTrip).toEqual(original);
    expect(stderr.join("")).toMatch(/events \(chrome\) → .*back\.jsonl \(jsonl\)/);
  });

  it("jsonl → otlp has the OTLP JSON shape, a span per pass", async () => {
    const out = join(dir, "spans.json");
    expect(await run([JSONL, "--to", "otlp", "-o", out, "--service", "foo-controller"])).toBe(0);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      resourceSpans: { resource: { attributes: { key: string; value: unknown }[] } }[];
    };
    expect(otlpProblems(doc)).toEqual([]);
    expect(doc.resourceSpans[0].resource.attributes).toContainEqual({
      key: "service.name",
      value: { stringValue: "foo-controller" },
    });
  });

  it("reads gzip input and Chrome files it wrote, whatever their name", async () => {
    const gz = join(dir, "trace.data");
    writeFileSync(gz, gzipSync(readFileSync(JSONL)));
    const chrome = join(dir, "c");
    const back = join(dir, "back.jsonl");
    expect(await run([gz, "--to", "chrome", "-o", chrome]), stderr.join("")).toBe(0);
    expect(await run([chrome, "--to", "jsonl", "-o", back]), stderr.join("")).toBe(0);
    const a = readTraceText(readFileSync(JSONL, "utf8")).events;
    const b = readTraceText(readFileSync(back, "utf8")).events;
    expect(portable(b)).toEqual(portable(a));
  });

  it("reads a log of `kubectl logs --prefix` ('[pod/…/…] I1202 …') as klog, as stats and replay do", async () => {
    const prefixed = join(dir, "prefixed.log");
    const plain = readFileSync(KLOG, "utf8");
    writeFileSync(
      prefixed,
      plain.replace(/^(?=.)/gm, "[pod/sample-controller-7d9f/sample-controller] "),
    );
    const out = join(dir, "back.jsonl");
    expect(
      await run([prefixed, "--to", "jsonl", "-o", out, "--year", "2026"]),
      stderr.join(""),
    ).toBe(0);
    expect(stderr.join("")).toMatch(/prefixed\.log: \d+ events \(klog\)/);
    const original = readTraceText(plain, { year: 2026 }).events;
    expect(portable(readTraceText(readFileSync(out, "utf8")).events)).toEqual(portable(original));
  });

  it('writes to stdout for -o "-", as "-" for FILE is stdin (no file named "-")', async () => {
    const stdout: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      stdout.push(String(chunk));
      return true;
    });
    const hadDash = existsSync("-");
    try {
      expect(await run([JSONL, "--to", "otlp", "-o", "-"])).toBe(0);
      expect(otlpProblems(JSON.parse(stdout.join("")))).toEqual([]);
      expect(stderr.join("")).toContain("→ stdout (otlp)");
      expect(existsSync("-")).toBe(hadDash);
    } finally {
      if (!hadDash) rmSync("-", { force: true });
    }
  });

  it("--to jsonl keeps a JSONL input's header: created, source and the fields it does not know", async () => {
    const header = {
      loopscope: "trace",
      version: 1,
      created: "2026-12-02T09:46:52.317Z",
      source: "live",
      scenario: "create-foo",
      myext: { a: 1 },
    };
    const events = readFileSync(JSONL, "utf8").split("\n").slice(1).join("\n");
    const input = join(dir, "custom.jsonl");
    writeFileSync(input, JSON.stringify(header) + "\n" + events);
    const out = join(dir, "out.jsonl");
    expect(await run([input, "--to", "jsonl", "-o", out])).toBe(0);
    const written = readFileSync(out, "utf8").split("\n");
    expect(JSON.parse(written[0])).toEqual(header);
    expect(written.slice(1).join("\n")).toBe(events);
    // A klog log has no header to keep: the file it was read from is the source.
    expect(await run([KLOG, "--to", "jsonl", "-o", out, "--year", "2026"])).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8").split("\n")[0])).toEqual({
      loopscope: "trace",
      version: 1,
      source: KLOG,
    });
  });

  it("jsonl → chrome → jsonl keeps the header: created, scenario, cluster and the rest", async () => {
    const chrome = join(dir, "trace.json");
    const back = join(dir, "back.jsonl");
    expect(await run([JSONL, "--to", "chrome", "-o", chrome])).toBe(0);
    expect(await run([chrome, "--to", "jsonl", "-o", back])).toBe(0);
    const header = JSON.parse(readFileSync(JSONL, "utf8").split("\n")[0]) as Record<
      string,
      unknown
    >;
    expect(Object.keys(header)).toEqual(expect.arrayContaining(["created", "scenario", "cluster"]));
    expect(JSON.parse(readFileSync(back, "utf8").split("\n")[0])).toEqual(header);
  });

  it("--to otlp carries a JSONL input's header as resource attributes", async () => {
    const out = join(dir, "spans.json");
    expect(await run([JSONL, "--to", "otlp", "-o", out])).toBe(0);
    const doc = JSON.parse(readFileSync(out, "utf8")) as {
      resourceSpans: {
        resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      }[];
    };
    const attrs = new Map(
      doc.resourceSpans[0].resource.attributes.map((a) => [a.key, a.value.stringValue]),
    );
    const header = JSON.parse(readFileSync(JSONL, "utf8").split("\n")[0]) as Record<
      string,
      unknown
    >;
    expect(attrs.get("loopscope.header.created")).toBe(header.created);
    expect(attrs.get("loopscope.header.scenario")).toBe(header.scenario);
    expect(attrs.get("loopscope.header.cluster")).toBe(header.cluster);
    expect(attrs.get("loopscope.source")).toBe(JSONL);
  });

  it("writes gzip when OUT ends in .gz", async () => {
    const out = join(dir, "trace.json.gz");
    expect(await run([JSONL, "--to", "chrome", "-o", out])).toBe(0);
    const doc = JSON.parse(gunzipSync(readFileSync(out)).toString("utf8")) as {
      traceEvents: unknown[];
    };
    expect(doc.traceEvents.length).toBeGreaterThan(50);
  });

  it("says what is wrong: usage (2), unreadable or foreign input (1), and leaves no half output", async () => {
    expect(await run([KLOG])).toBe(2);
    expect(stderr.join("")).toContain("--to is required");
    expect(await run([KLOG, "--to", "svg"])).toBe(2);
    expect(await run(["--to", "chrome"])).toBe(2);
    expect(await run([join(dir, "missing.log"), "--to", "chrome"])).toBe(1);
    expect(stderr.join("")).toContain("missing.log: no such file");

    const junk = join(dir, "notes.txt");
    writeFileSync(junk, "just some text\nnothing like a trace\n");
    const out = join(dir, "out.json");
    expect(await run([junk, "--to", "chrome", "-o", out])).toBe(1);
    expect(stderr.join("")).toContain(
      "notes.txt has no STAGE events (not a loopscope JSONL trace or a klog log of the controller)",
    );
    expect(existsSync(out)).toBe(false);

    // An OTLP export is not read back (only Chrome is): said as stats says it, not 0 events.
    const otlp = join(REPO, "public/traces/create-foo.otlp.json");
    expect(await run([otlp, "--to", "jsonl", "-o", out])).toBe(1);
    expect(stderr.join("")).toContain(
      "create-foo.otlp.json is an OTLP/JSON export that loopscope convert made from create-foo.jsonl: open that file",
    );
    expect(existsSync(out)).toBe(false);

    const foreign = join(dir, "other-tool.json");
    writeFileSync(
      foreign,
      JSON.stringify([{ ph: "X", name: "work", ts: 1, dur: 2, pid: 1, tid: 1 }]),
    );
    expect(await run([foreign, "--to", "jsonl", "-o", out])).toBe(1);
    expect(stderr.join("")).toContain("no loopscope events among them");
  });

  it("never writes over its input, and a failed run leaves an existing OUT as it was", async () => {
    const input = join(dir, "trace.jsonl");
    const original = readFileSync(JSONL, "utf8");
    writeFileSync(input, original);
    for (const to of ["jsonl", "chrome"]) {
      expect(await run([input, "--to", to, "-o", input])).toBe(1);
      expect(readFileSync(input, "utf8")).toBe(original);
    }
    expect(stderr.join("")).toContain(
      `${input} is the input file: write the result to another file`,
    );

    const out = join(dir, "kept.json");
    writeFileSync(out, "an earlier result");
    const junk = join(dir, "notes.txt");
    writeFileSync(junk, "just some text\n");
    expect(await run([junk, "--to", "chrome", "-o", out])).toBe(1);
    expect(readFileSync(out, "utf8")).toBe("an earlier result");
    expect(readdirSync(dir).filter((f) => f.includes(".partial-"))).toEqual([]);

    const sub = join(dir, "sub");
    mkdirSync(sub);
    expect(await run([input, "--to", "chrome", "-o", sub])).toBe(1);
    expect(stderr.join("")).toContain(`loopscope convert: ${sub}: is a directory`);
    expect(await run([input, "--to", "chrome", "-o", join(dir, "nope", "x.json")])).toBe(1);
    expect(stderr.join("")).toContain(`x.json: no such directory ${join(dir, "nope")}`);

    // And a run that succeeds replaces OUT whole.
    expect(await run([input, "--to", "chrome", "-o", out])).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("traceEvents");
  });

  it("gives the file it replaces that file's permission bits, a private one kept private", async () => {
    for (const mode of [0o600, 0o640, 0o666]) {
      const out = join(dir, `mode-${mode.toString(8)}.json`);
      writeFileSync(out, "an earlier result");
      chmodSync(out, mode);
      expect(await run([JSONL, "--to", "chrome", "-o", out])).toBe(0);
      expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("traceEvents");
      expect((statSync(out).mode & 0o777).toString(8)).toBe(mode.toString(8));
    }
  });

  it("writes through a symbolic link, and into a FIFO in place, never a plain file over them", async () => {
    const target = join(dir, "real.json");
    const link = join(dir, "link.json");
    symlinkSync(target, link);
    expect(await run([JSONL, "--to", "chrome", "-o", link])).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toHaveProperty("traceEvents");

    const fifo = join(dir, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    const read = readFile(fifo, "utf8");
    expect(await run([JSONL, "--to", "jsonl", "-o", fifo])).toBe(0);
    expect((await read).trim().split("\n")).toHaveLength(
      readFileSync(JSONL, "utf8").trim().split("\n").length,
    );
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes(".partial-"))).toEqual([]);
  });

  it("Ctrl-C while it converts removes the partial file beside OUT and exits 130", async () => {
    const out = join(dir, "out.json");
    // Node itself, not the tsx binary: that one relays signals to a child process of its own.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "apps/server/src/main.ts", "convert", "-", "--to", "chrome", "-o", out],
      { cwd: REPO, stdio: ["pipe", "ignore", "ignore"] },
    );
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // Half a trace on stdin, kept open: the conversion is under way, its partial file made.
    child.stdin.write(readFileSync(JSONL).subarray(0, 3000));
    const partial = () => readdirSync(dir).filter((f) => f.includes(".partial-"));
    await vi.waitFor(() => expect(partial()).toHaveLength(1), { timeout: 20_000, interval: 50 });
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(partial()).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });
});
