/**
 * `loopscope stats FILE [--json]`: what a trace says per Foo — stage counts, passes and their
 * causes, writes that changed something, conflicts, the reconcile count for one create,
 * quiescence and hot loops. The JSON shape is a contract (docs/trace-format.md, "stats").
 */
import type { Analyzer, KeySummary, TraceReader } from "@loopscope/trace";
import { STAGES } from "@loopscope/trace";
import { intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { InputError } from "../cli/input.ts";
import { loadTraceFile } from "../cli/load-trace-file.ts";

export const usage = `usage: loopscope stats FILE [--json] [--year N] [--hot-loop N]

Reads FILE (a loopscope .jsonl trace or a klog log; "-" = stdin; gzip is detected) and prints,
per Foo, the count of each STAGE, the passes by cause, writes that changed something, conflicts,
the reconcile count for one create, whether it went quiescent, and hot loops.

  --json        print the result as JSON
  --year N      the year of klog lines (klog prints none; default: the current year)
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
  let loaded;
  try {
    loaded = await loadTraceFile(flags.file, {
      ...(flags.year !== undefined ? { year: flags.year } : {}),
      ...(flags.hotLoop !== undefined ? { hotLoopThreshold: flags.hotLoop } : {}),
    });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`loopscope stats: ${e.message}\n`);
    return 1;
  }
  const result = statsJson(loaded.reader, loaded.analyzer);
  process.stdout.write(
    flags.json ? JSON.stringify(result, null, 2) + "\n" : statsTable(flags.file, result),
  );
  return 0;
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
  quiescent: boolean;
  hotLoop: boolean;
}

export interface StatsJson {
  format: "klog" | "jsonl";
  lines: number;
  events: number;
  byStage: KeySummary["byStage"];
  keys: Record<string, StatsKey>;
  findings: { kind: string; key: string; detail: string; fields: string[] }[];
  diagnostics: { line: number; message: string }[];
}

export function statsJson(reader: TraceReader, analyzer: Analyzer): StatsJson {
  const snap = analyzer.snapshot();
  const keys: Record<string, StatsKey> = Object.create(null) as Record<string, StatsKey>;
  for (const [k, s] of Object.entries(snap.keys)) {
    keys[k] = {
      byStage: s.byStage,
      passes: s.passes,
      passCauses: s.passCauses,
      writes: s.writes,
      changingWrites: s.changingWrites,
      noopWrites: s.noopWrites,
      conflicts: s.conflicts,
      reconcilesForCreate: s.reconcilesForCreate,
      quiescent: s.quiescent,
      hotLoop: s.hotLoop,
    };
  }
  const diagnostics = reader.diagnostics.map((d) => ({ line: d.line, message: d.message }));
  if (reader.diagnosticCount > reader.diagnostics.length) {
    const last = diagnostics[diagnostics.length - 1]?.line ?? 0;
    diagnostics.push({
      line: last,
      message: `… and ${reader.diagnosticCount - reader.diagnostics.length} more problems`,
    });
  }
  return {
    format: reader.format ?? "klog",
    lines: reader.lines,
    events: reader.events,
    byStage: snap.byStage,
    keys,
    findings: snap.findings.map((f) => ({
      kind: f.kind,
      key: f.key,
      detail: f.detail,
      fields: f.fields ?? [],
    })),
    diagnostics,
  };
}

const SHOWN_KEYS = 40;
const SHOWN_DIAGNOSTICS = 20;

/** The human view: one row per key, then findings and problems. */
export function statsTable(file: string, r: StatsJson): string {
  const out: string[] = [];
  const stages = STAGES.map((s) => `${s} ${r.byStage[s]}`).join(" · ");
  out.push(`${file}: ${r.format}, ${r.lines} lines, ${r.events} events (${stages})`, "");
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
    s.reconcilesForCreate === null ? "-" : String(s.reconcilesForCreate),
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
      out.push(`… ${rows.length - SHOWN_KEYS} more keys (--json lists all)`);
  }
  if (r.findings.length > 0) {
    out.push("", "findings:");
    for (const f of r.findings) out.push(`  ${f.kind} ${f.key || "(no Foo)"}: ${f.detail}`);
  }
  if (r.diagnostics.length > 0) {
    out.push("", `notes and problems (${r.diagnostics.length}):`);
    for (const d of r.diagnostics.slice(0, SHOWN_DIAGNOSTICS))
      out.push(`  line ${d.line}: ${d.message}`);
    if (r.diagnostics.length > SHOWN_DIAGNOSTICS)
      out.push(`  … ${r.diagnostics.length - SHOWN_DIAGNOSTICS} more (--json lists them)`);
  }
  return out.join("\n") + "\n";
}
