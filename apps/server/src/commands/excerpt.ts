/**
 * `loopscope excerpt FILE [--key ns/name] [--format md|text]`: the exercise's annotated excerpt —
 * one Foo from creation to quiescent, stage names down the left, file:line beside each line,
 * pass boundaries and causes marked, then the count of each tag and the reconcile count.
 */
import {
  buildExcerpt,
  ExcerptEvents,
  renderExcerptMarkdown,
  renderExcerptText,
} from "@loopscope/trace";
import { intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { count } from "../cli/count.ts";
import { InputError } from "../cli/input.ts";
import { readTraceFile } from "../cli/read-trace-file.ts";

export const usage = `usage: loopscope excerpt FILE [--key ns/name] [--format md|text] [--year N]

Prints the annotated STAGE excerpt of one Foo (default: the first Foo added in FILE) from its
creation (or the informer's initial list, for a Foo that existed before the run) until it went
quiescent, with the count of each tag and the reconcile count.
FILE is a loopscope .jsonl trace or a klog log; "-" = stdin; gzip is detected.

  --key ns/name      the Foo to follow
  --format md|text   Markdown table or plain text (default text)
  --year N           the year of klog lines (klog prints none; default: the year
                     of a kubectl logs --timestamps prefix or a Docker log record's
                     time, else the current year — last year's if
                     that puts the first line after today)
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
  // Only the Foo's events are kept (a 1M-line log's excerpt took 700 MB when all were), and the
  // keys, to say which there are when the Foo asked for is not among them.
  const picker = new ExcerptEvents(flags.key);
  const keys = new Set<string>();
  let reader;
  try {
    reader = await readTraceFile(
      flags.file,
      (e) => {
        picker.take(e);
        if (e.key && e.stage !== "note") keys.add(e.key);
      },
      flags.year !== undefined ? { year: flags.year } : {},
    );
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`loopscope excerpt: ${e.message}\n`);
    return 1;
  }
  const err = (line: string) => process.stderr.write(`loopscope excerpt: ${line}\n`);
  // On stderr, as replay says them: an excerpt of a damaged file is missing what the damage hid.
  const { diagnostics, diagnosticCount } = reader;
  if (diagnosticCount > 0) {
    err(
      `${flags.file}: ${count(diagnosticCount, "note or problem", "notes and problems")} while reading (lines not read are not in the excerpt):`,
    );
    for (const d of diagnostics.slice(0, SHOWN_DIAGNOSTICS)) err(`  line ${d.line}: ${d.message}`);
    if (diagnosticCount > SHOWN_DIAGNOSTICS)
      err(`  … ${diagnosticCount - SHOWN_DIAGNOSTICS} more (stats --json lists them)`);
  }
  const picked = picker.picked();
  const x = picked && buildExcerpt(picked.events, { key: picked.key });
  if (!x) {
    if (flags.key === undefined) {
      err(`${flags.file}: no Foo in this trace`);
      return 1;
    }
    const some = [...keys].slice(0, 10).join(", ") + (keys.size > 10 ? `, … (${keys.size})` : "");
    err(
      `${flags.file}: no events for key "${flags.key}"` +
        (keys.size > 0 ? `; the trace has ${some}` : ""),
    );
    return 1;
  }
  process.stdout.write(flags.format === "md" ? renderExcerptMarkdown(x) : renderExcerptText(x));
  return 0;
}
