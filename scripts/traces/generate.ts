/**
 * Regenerates the sample traces in public/traces from real runs of our controller: each sample
 * is `loopscope run --scenario <name>` on the embedded API server (the same CLI a user runs),
 * the create-foo run also keeps its klog text (canonical STAGE lines, what the patched Go
 * sample-controller prints at -v=2) and is converted with `loopscope convert` to Chrome/Perfetto
 * JSON and OTLP/JSON. Then public/traces/index.json lists them for the dashboard's sample menu:
 *
 *   { "traces": [ { "file", "title", "description", "teaches", "exports"? } ] }
 *
 * Entries for files no sample produces are kept as they are — the place for a log of the real Go
 * sample-controller recorded with scripts/sample-controller/trace-go-controller.sh (that needs Go
 * and a cluster, so it cannot be regenerated here; never a hand-written one).
 *
 *   pnpm traces                 # all samples
 *   pnpm traces create-foo      # only some
 *
 * Other tests read these files (e2e/dashboard-replay.spec.ts steps through create-foo.jsonl by
 * seq; apps/server/src/dashboard/replay.test.ts, scripts/bench/size.ts): after regenerating, run
 * them — a scenario that now emits one more note shifts every seq.
 *
 * Invariants: samples are never edited by hand — rerun this instead; every file is checked
 * before it replaces the old one (it reads back without errors, says what its scenario is about,
 * and stays under MAX_BYTES so the repository and the browser stay light).
 */
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Analyzer, readTraceText, type TraceEvent } from "../../packages/trace/src/index.ts";
import { scenarios } from "../../apps/server/src/scenarios/index.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const OUT_DIR = join(ROOT, "public", "traces");
const MAX_BYTES = 200 * 1024;

interface Sample {
  scenario: string;
  title: string;
  description: string;
  /** Also keep the run's klog text as <scenario>.klog.log. */
  klog?: boolean;
  /** Also write these conversions of the JSONL. */
  exports?: Array<"chrome" | "otlp">;
  /** What the trace must show, or the sample is not worth shipping. */
  check(events: TraceEvent[], analyzer: Analyzer): string | undefined;
}

export interface IndexEntry {
  file: string;
  title: string;
  /** What is in the trace. */
  description: string;
  /** The lesson (the scenario's own one-liner); the dashboard shows it as the menu tooltip. */
  teaches?: string;
  /** Other formats of the same run: { chrome: "x.chrome.json", otlp: "x.otlp.json" }. */
  exports?: Record<string, string>;
}

const KEY = "default/example-foo";

const SAMPLES: Sample[] = [
  {
    scenario: "create-foo",
    title: "Create one Foo",
    description:
      "kubectl apply of example-foo: the create pass, then passes caused by the controller's own writes (the Deployment it created, its status update) and by the Deployment controller's rollout, until a pass changes nothing.",
    klog: true,
    exports: ["chrome", "otlp"],
    check(_events, a) {
      const s = a.summary(KEY);
      if (!s) return `no events for ${KEY}`;
      if (s.selfTriggered < 1) return "no self-triggered pass";
      if (!s.quiescent) return "the Foo never went quiescent";
      return undefined;
    },
  },
  {
    scenario: "hot-loop",
    title: "Hot loop: a timestamp in status",
    description:
      "The controller writes a fresh status timestamp on every pass: each status write changes the Foo, its echo triggers the next pass, which writes again. The analysis names the field that differs every time.",
    exports: ["chrome", "otlp"],
    check(_events, a) {
      return a.findings().some((f) => f.kind === "hot-loop" && f.key === KEY)
        ? undefined
        : "no hot-loop finding";
    },
  },
  {
    scenario: "fix-hot-loop",
    title: "Hot loop fixed: idempotent status",
    description:
      "The same timestamp bug, with the fix on: the status is compared before UpdateStatus and left alone when only the timestamp would differ, so the echo of the last real change triggers a pass that writes nothing. Compare it with the hot-loop sample.",
    check(_events, a) {
      const s = a.summary(KEY);
      if (!s) return `no events for ${KEY}`;
      if (s.hotLoop) return "still a hot loop";
      return s.quiescent ? undefined : "the Foo never went quiescent";
    },
  },
  {
    scenario: "burst",
    title: "Burst: 8 Foos at once, 1 worker",
    description:
      "Eight Foos applied together with a single worker: the queue grows and drains one key at a time, and Deployment events for keys still waiting merge into the pass they wait for.",
    check(events, a) {
      if (a.keys().filter((k) => k.startsWith("default/burst-")).length !== 8)
        return "not 8 burst Foos";
      const merged = events.some((e) => e.stage === "enqueue" && e.merged === "dirty");
      return merged ? undefined : "no merged enqueue";
    },
  },
];

async function readIndex(path: string): Promise<IndexEntry[]> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return [];
  const doc = JSON.parse(text) as { traces?: IndexEntry[] } | IndexEntry[];
  return Array.isArray(doc) ? doc : (doc.traces ?? []);
}

/** The CLI as a user runs it; `cwd` decides how input paths are recorded in converted files. */
function loopscope(args: string[], cwd = ROOT): Promise<void> {
  const main = join(ROOT, "apps", "server", "src", "main.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), main, ...args], {
      cwd,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`loopscope ${args.join(" ")} exited with ${code}`)),
    );
  });
}

async function checkSize(path: string): Promise<void> {
  const { size } = await stat(path);
  if (size > MAX_BYTES)
    throw new Error(`${path}: ${size} bytes, over the ${MAX_BYTES}-byte budget for a sample`);
}

async function readChecked(path: string): Promise<{ events: TraceEvent[]; analyzer: Analyzer }> {
  const { events, reader } = readTraceText(await readFile(path, "utf8"), {
    year: new Date().getUTCFullYear(),
  });
  const errors = reader.diagnostics.filter((d) => (d.level ?? "error") === "error");
  if (errors.length) throw new Error(`${path}: line ${errors[0].line}: ${errors[0].message}`);
  const analyzer = new Analyzer();
  analyzer.pushAll(events);
  return { events, analyzer };
}

async function generate(sample: Sample, work: string): Promise<IndexEntry[]> {
  const base = sample.scenario;
  const jsonl = join(work, `${base}.jsonl`);
  const klog = join(work, `${base}.klog.log`);
  process.stderr.write(`\n== ${base}\n`);
  await loopscope([
    "run",
    "--scenario",
    base,
    "--out",
    jsonl,
    ...(sample.klog ? ["--klog", klog] : []),
  ]);
  const { events, analyzer } = await readChecked(jsonl);
  const problem = sample.check(events, analyzer);
  if (problem) throw new Error(`${base}: ${problem}`);
  const files = [jsonl];
  const teaches = scenarios[base]?.teaches;
  const entries: IndexEntry[] = [
    {
      file: `${base}.jsonl`,
      title: sample.title,
      description: sample.description,
      ...(teaches ? { teaches } : {}),
    },
  ];
  if (sample.klog) {
    const fromLog = await readChecked(klog);
    const stages = (es: TraceEvent[]) =>
      es.filter((e) => e.stage !== "note" && e.stage !== "done").length;
    if (stages(fromLog.events) !== stages(events)) {
      throw new Error(
        `${base}: the klog log has ${stages(fromLog.events)} STAGE lines, the trace ${stages(events)} stage events`,
      );
    }
    files.push(klog);
    entries.push({
      file: `${base}.klog.log`,
      title: `${sample.title} (klog)`,
      description:
        "The same run as the controller logged it at -v=2: one canonical STAGE line per stage — the format the patched Go sample-controller prints (docs/go-controller.md).",
      ...(teaches ? { teaches } : {}),
    });
  }
  const exports: Record<string, string> = {};
  for (const to of sample.exports ?? []) {
    const file = `${base}.${to}.json`;
    await loopscope(["convert", `${base}.jsonl`, "--to", to, "-o", file], work);
    files.push(join(work, file));
    exports[to] = file;
  }
  if (Object.keys(exports).length) entries[0].exports = exports;
  for (const f of files) await checkSize(f);
  for (const f of files) await copyFile(f, join(OUT_DIR, f.slice(work.length + 1)));
  return entries;
}

async function main(argv: string[]): Promise<void> {
  const unknown = argv.filter((a) => !SAMPLES.some((s) => s.scenario === a));
  if (unknown.length)
    throw new Error(
      `unknown sample ${unknown[0]} (known: ${SAMPLES.map((s) => s.scenario).join(", ")})`,
    );
  const chosen = argv.length ? SAMPLES.filter((s) => argv.includes(s.scenario)) : SAMPLES;
  const indexPath = join(OUT_DIR, "index.json");
  const previous = await readIndex(indexPath);
  const work = await mkdtemp(join(tmpdir(), "loopscope-traces-"));
  try {
    const fresh = new Map<string, IndexEntry[]>();
    for (const s of chosen) fresh.set(s.scenario, await generate(s, work));
    // Samples not regenerated this time keep their entries, in the order SAMPLES lists them;
    // entries no sample makes (hand-made real-controller logs) follow.
    const ours = (e: IndexEntry) => SAMPLES.some((s) => e.file.startsWith(`${s.scenario}.`));
    const index = [
      ...SAMPLES.flatMap(
        (s) => fresh.get(s.scenario) ?? previous.filter((e) => e.file.startsWith(`${s.scenario}.`)),
      ),
      ...previous.filter((e) => !ours(e)),
    ];
    await writeFile(indexPath, JSON.stringify({ traces: index }, null, 2) + "\n");
    process.stderr.write(`\n${index.length} samples listed in ${indexPath}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`traces: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
