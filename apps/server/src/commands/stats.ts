/**
 * `loopscope stats FILE [--json]`: what a trace says per Foo — stage counts, passes and their
 * causes, writes that changed something, conflicts, the reconcile count for one create,
 * quiescence and hot loops. The JSON shape is a contract (docs/trace-format.md, "stats").
 */
import type { Diagnostic, KeySummary, TraceFormat, TraceReader } from "@loopscope/trace";
import { Analyzer, STAGES } from "@loopscope/trace";
import { intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { count } from "../cli/count.ts";
import { InputError } from "../cli/input.ts";
import { readTraceFile } from "../cli/read-trace-file.ts";

export const usage = `usage: loopscope stats FILE [--json] [--year N] [--hot-loop N]

Reads FILE (a loopscope .jsonl trace or a klog log; "-" = stdin; gzip is detected) and prints,
per Foo, the count of each STAGE, the passes by cause, writes that changed something, conflicts,
the reconcile count for one create (for a Foo that existed before the run, from the informer's
initial list: "listed"), whether it went quiescent, and hot loops. A Foo deleted and created
again under its name is counted from its latest creation (the first line and the findings count
the whole file).

  --json        print the result as JSON
  --year N      the year of klog lines (klog prints none; default: the year
                of a kubectl logs --timestamps prefix or a Docker log record's
                time, else the current year — last year's if
                that puts the first line after today)
  --hot-loop N  consecutive self-triggered changing passes that make a hot loop (default 5)
`;

export async function run(argv: string[]): Promise<number> {
  let flags;
  try {
    const { values, positionals } = parseFileArgs(argv, {
      json: { type: "boolean" },
      year: { type: "string" },
      "hot-loop": { type: "string" },
    });
    if (values.help) {
      process.stdout.write(usage);
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError(positionals.length ? "one FILE only" : "FILE is required");
    flags = {
      file: positionals[0],
      json: values.json === true,
      year: intFlag("year", values.year, 1970, 9999),
      hotLoop: intFlag("hot-loop", values["hot-loop"], 1, 1_000_000),
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`loopscope stats: ${e.message}\n${usage}`);
    return 2;
  }
  const analyzer = new Analyzer(
    flags.hotLoop !== undefined ? { hotLoopThreshold: flags.hotLoop } : {},
  );
  let reader;
  try {
    reader = await readTraceFile(
      flags.file,
      (e) => analyzer.push(e),
      flags.year !== undefined ? { year: flags.year } : {},
    );
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`loopscope stats: ${e.message}\n`);
    return 1;
  }
  if (flags.json) await writeStatsJson(reader, analyzer, toStdout);
  else process.stdout.write(statsTable(flags.file, statsJson(reader, analyzer)));
  return 0;
}

/** Writes to stdout, waiting while a pipe's buffer is full. */
function toStdout(text: string): Promise<void> | undefined {
  if (process.stdout.write(text)) return undefined;
  return new Promise((resolve) => process.stdout.once("drain", resolve));
}

/** Pieces of the --json output are written at about this size. */
const PIECE = 1 << 20;

/**
 * `--json`: the text of `JSON.stringify(statsJson(reader, analyzer), null, 2)` and a newline,
 * byte for byte, written as it is made — a key's record at a time, in pieces of about 1 MB — so a
 * log of 100k Foos neither waits for one 30 MB string nor holds one.
 */
export async function writeStatsJson(
  reader: TraceReader,
  analyzer: Analyzer,
  write: (text: string) => Promise<void> | undefined,
): Promise<void> {
  const json = (v: unknown, indent: string) => JSON.stringify(v, null, 2).replaceAll("\n", indent);
  let out = json(statsHead(reader, analyzer), "\n").slice(0, -2) + ',\n  "keys": {';
  let first = true;
  for (const k of analyzer.keys()) {
    const record = json(statsKey(analyzer.summary(k)!), "\n    ");
    out += `${first ? "" : ","}\n    ${JSON.stringify(k)}: ${record}`;
    first = false;
    if (out.length >= PIECE) {
      await write(out);
      out = "";
    }
  }
  out += first ? "}" : "\n  }";
  const { findings, diagnostics } = statsTail(reader, analyzer);
  out += `,\n  "findings": ${json(findings, "\n  ")},\n  "diagnostics": ${json(diagnostics, "\n  ")}\n}\n`;
  await write(out);
}

export interface StatsKey {
  byStage: KeySummary["byStage"];
  passes: number;
  passCauses: KeySummary["passCauses"];
  writes: number;
  changingWrites: number;
  noopWrites: number;
  conflicts: number;
  reconcilesForCreate: number | null;
  /** The Foo existed before the trace: counted from the informer's initial list, not a create. */
  listed: boolean;
  quiescent: boolean;
  hotLoop: boolean;
}

export interface StatsJson {
  format: TraceFormat;
  lines: number;
  events: number;
  byStage: KeySummary["byStage"];
  keys: Record<string, StatsKey>;
  findings: {
    kind: string;
    key: string;
    detail: string;
    count: number;
    lives: number;
    fields: string[];
  }[];
  /** Each with its level, as docs/trace-format.md says every diagnostic has (absent = error). */
  diagnostics: { line: number; level: NonNullable<Diagnostic["level"]>; message: string }[];
}

export function statsJson(reader: TraceReader, analyzer: Analyzer): StatsJson {
  const keys: Record<string, StatsKey> = Object.create(null) as Record<string, StatsKey>;
  for (const k of analyzer.keys()) keys[k] = statsKey(analyzer.summary(k)!);
  return { ...statsHead(reader, analyzer), keys, ...statsTail(reader, analyzer) };
}

function statsHead(reader: TraceReader, analyzer: Analyzer) {
  return {
    format: reader.format ?? "klog",
    lines: reader.lines,
    events: reader.events,
    byStage: analyzer.byStage(),
  };
}

function statsKey(s: KeySummary): StatsKey {
  return {
    byStage: s.byStage,
    passes: s.passes,
    passCauses: s.passCauses,
    writes: s.writes,
    changingWrites: s.changingWrites,
    noopWrites: s.noopWrites,
    conflicts: s.conflicts,
    reconcilesForCreate: s.reconcilesForCreate,
    listed: s.listed,
    quiescent: s.quiescent,
    hotLoop: s.hotLoop,
  };
}

function statsTail(reader: TraceReader, analyzer: Analyzer) {
  const diagnostics: StatsJson["diagnostics"] = reader.diagnostics.map((d) => ({
    line: d.line,
    level: d.level ?? "error",
    message: d.message,
  }));
  if (reader.diagnosticCount > reader.diagnostics.length) {
    const last = diagnostics[diagnostics.length - 1]?.line ?? 0;
    // Not about a line but a count of those not kept: a statement about the input, info.
    diagnostics.push({
      line: last,
      level: "info",
      message: `… and ${count(reader.diagnosticCount - reader.diagnostics.length, "more problem")}`,
    });
  }
  const findings = analyzer.findings().map((f) => ({
    kind: f.kind,
    key: f.key,
    detail: f.detail,
    count: f.count,
    lives: f.lives,
    fields: f.fields ?? [],
  }));
  return { findings, diagnostics };
}

const SHOWN_KEYS = 40;
const SHOWN_DIAGNOSTICS = 20;

/** The human view: one row per key, then findings and problems. */
export function statsTable(file: string, r: StatsJson): string {
  const out: string[] = [];
  const staged = STAGES.reduce((n, s) => n + r.byStage[s], 0);
  // Pass ends and notes are events too: the parts add up to the whole.
  const rest =
    r.events > staged
      ? ` · ${count(r.events - staged, "pass end or note", "pass ends and notes")}`
      : "";
  const stages = STAGES.map((s) => `${s} ${r.byStage[s]}`).join(" · ") + rest;
  out.push(
    `${file}: ${r.format}, ${count(r.lines, "line")}, ${count(r.events, "event")} (${stages})`,
    "",
  );
  const head = [
    "KEY",
    "WATCH",
    "ENQ",
    "DEQ",
    "READ",
    "WRITE",
    "PASSES",
    "EXT",
    "SELF",
    "RESYNC",
    "RETRY",
    "UNK",
    "CHANGING",
    "NOOP",
    "409",
    "CREATE",
    "QUIET",
    "HOT",
  ];
  const rows = Object.entries(r.keys).map(([k, s]) => [
    k,
    ...STAGES.map((st) => String(s.byStage[st])),
    String(s.passes),
    String(s.passCauses.external),
    String(s.passCauses.self),
    String(s.passCauses.resync),
    String(s.passCauses.retry),
    String(s.passCauses.unknown),
    String(s.changingWrites),
    String(s.noopWrites),
    String(s.conflicts),
    s.reconcilesForCreate === null ? "-" : `${s.reconcilesForCreate}${s.listed ? " (listed)" : ""}`,
    s.quiescent ? "yes" : "no",
    s.hotLoop ? "YES" : "-",
  ]);
  if (rows.length === 0) out.push("no keys (no STAGE lines or pass-end markers)");
  else {
    const shown = rows.slice(0, SHOWN_KEYS);
    const widths = head.map((h, i) => Math.max(h.length, ...shown.map((row) => row[i].length)));
    const fmt = (row: string[]) =>
      row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    out.push(fmt(head), ...shown.map(fmt));
    if (rows.length > SHOWN_KEYS)
      out.push(`… ${count(rows.length - SHOWN_KEYS, "more key")} (--json lists all)`);
    if (Object.values(r.keys).some((s) => s.listed))
      out.push(
        "(listed): the Foo existed before the trace; CREATE counts from the informer's initial list, not from a creation",
      );
  }
  if (r.findings.length > 0) {
    out.push("", "findings:");
    for (const f of r.findings) out.push(`  ${f.kind} ${f.key || "(no Foo)"}: ${f.detail}`);
  }
  if (r.diagnostics.length > 0) {
    out.push("", `${count(r.diagnostics.length, "note or problem", "notes and problems")}:`);
    for (const d of r.diagnostics.slice(0, SHOWN_DIAGNOSTICS))
      out.push(`  line ${d.line}: ${d.message}`);
    if (r.diagnostics.length > SHOWN_DIAGNOSTICS)
      out.push(`  … ${r.diagnostics.length - SHOWN_DIAGNOSTICS} more (--json lists them)`);
  }
  return out.join("\n") + "\n";
}
