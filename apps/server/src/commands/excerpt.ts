/**
 * `loopscope excerpt FILE [--key ns/name] [--format md|text]`: the exercise's annotated excerpt —
 * one Foo from creation to quiescent, stage names down the left, file:line beside each line,
 * pass boundaries and causes marked, then the count of each tag and the reconcile count.
 */
import { buildExcerpt, renderExcerptMarkdown, renderExcerptText } from "@loopscope/trace";
import { intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { InputError } from "../cli/input.ts";
import { loadTraceFile } from "../cli/load-trace-file.ts";

export const usage = `usage: loopscope excerpt FILE [--key ns/name] [--format md|text] [--year N]

Prints the annotated STAGE excerpt of one Foo (default: the first Foo created in FILE) from its
creation until it went quiescent, with the count of each tag and the reconcile count.
FILE is a loopscope .jsonl trace or a klog log; "-" = stdin; gzip is detected.

  --key ns/name      the Foo to follow
  --format md|text   Markdown table or plain text (default text)
  --year N           the year of klog lines (klog prints none; default: the current year)
`;

/** Notes and problems printed; the rest are counted. */
const SHOWN_DIAGNOSTICS = 10;

export async function run(argv: string[]): Promise<number> {
  let flags;
  try {
    const { values, positionals } = parseFileArgs(argv, {
      key: { type: "string" },
      format: { type: "string" },
      year: { type: "string" },
    });
    if (values.help) {
      process.stdout.write(usage);
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError(positionals.length ? "one FILE only" : "FILE is required");
    const format = values.format ?? "text";
    if (format !== "md" && format !== "text")
      throw new UsageError(`--format must be md or text, not "${format}"`);
    if (values.key !== undefined && !/^[^/\s]+(\/[^/\s]+)?$/.test(values.key)) {
      throw new UsageError(`--key must be namespace/name, not "${values.key}"`);
    }
    flags = {
      file: positionals[0],
      key: values.key,
      format,
      year: intFlag("year", values.year, 1970, 9999),
    };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`loopscope excerpt: ${e.message}\n${usage}`);
    return 2;
  }
  let loaded;
  try {
    loaded = await loadTraceFile(flags.file, {
      keepEvents: true,
      ...(flags.year !== undefined ? { year: flags.year } : {}),
    });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`loopscope excerpt: ${e.message}\n`);
    return 1;
  }
  const err = (line: string) => process.stderr.write(`loopscope excerpt: ${line}\n`);
  // On stderr, as replay says them: an excerpt of a damaged file is missing what the damage hid.
  const { diagnostics, diagnosticCount } = loaded.reader;
  if (diagnosticCount > 0) {
    err(
      `${flags.file}: ${diagnosticCount} notes and problems while reading (lines not read are not in the excerpt):`,
    );
    for (const d of diagnostics.slice(0, SHOWN_DIAGNOSTICS)) err(`  line ${d.line}: ${d.message}`);
    if (diagnosticCount > SHOWN_DIAGNOSTICS)
      err(`  … ${diagnosticCount - SHOWN_DIAGNOSTICS} more (stats --json lists them)`);
  }
  const x = buildExcerpt(loaded.events, flags.key !== undefined ? { key: flags.key } : {});
  if (!x) {
    if (flags.key === undefined) {
      err(`${flags.file}: no Foo in this trace`);
      return 1;
    }
    const keys = loaded.analyzer.keys().filter((k) => k !== "");
    const listed = keys.slice(0, 10).join(", ") + (keys.length > 10 ? `, … (${keys.length})` : "");
    err(
      `${flags.file}: no events for key "${flags.key}"` +
        (keys.length > 0 ? `; the trace has ${listed}` : ""),
    );
    return 1;
  }
  process.stdout.write(flags.format === "md" ? renderExcerptMarkdown(x) : renderExcerptText(x));
  return 0;
}
