/**
 * `loopscope convert FILE --to chrome|otlp|jsonl [-o OUT]`: a trace in another format, streamed
 * — events are read, analyzed and written chunk by chunk, each pass as soon as it closes, so a
 * trace of millions of events converts in memory proportional to its passes, not its events.
 *
 * Input: loopscope JSONL, a klog log with STAGE lines, or Chrome trace JSON written by
 * `--to chrome` (detected from the first bytes; gzip and "-" for stdin as everywhere).
 */
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { createGzip } from "node:zlib";
import {
  ChromeTraceReader,
  ChromeTraceWriter,
  ExportPipeline,
  OtlpTraceWriter,
  TraceReader,
  encodeEvent,
  encodeHeader,
  looksLikeChromeTrace,
  exportHead,
  whyNotATrace,
  type ExportHead,
  type Diagnostic,
  type TraceEvent,
  type TraceHeader,
} from "@loopscope/trace";
import { flagsOrExit, intFlag, parseFileArgs, UsageError } from "../cli/args.ts";
import { count } from "../cli/count.ts";
import { InputError, openTraceInput, upToDamage } from "../cli/input.ts";
import {
  abandonOnSignal,
  abandonOutput,
  checkOutputFile,
  commitOutput,
  openOutput,
  outputFailure,
  OutputFileError,
} from "../cli/output-file.ts";

export const usage = `usage: loopscope convert FILE --to chrome|otlp|jsonl [-o OUT] [options]

Converts FILE (a loopscope .jsonl trace, a klog log with STAGE lines, or Chrome trace JSON
written by --to chrome; "-" = stdin; gzip is detected) and writes it to stdout or OUT:

  --to chrome   Chrome Trace Event JSON: open in https://ui.perfetto.dev or chrome://tracing
                (a process per Foo, a thread per lane, passes as slices, causes as arrows)
  --to otlp     OTLP/JSON spans: a trace per Foo, a span per pass, links to the causing pass;
                upload to Jaeger or POST to an OTLP/HTTP endpoint such as Tempo's /v1/traces
  --to jsonl    loopscope's own trace format (e.g. to read a Chrome file back)
  -o, --out OUT write to OUT instead of stdout ("-" = stdout; gzip-compressed when OUT ends
                in .gz; Perfetto opens .json.gz as it is)
  --year N      the year of klog lines (klog prints none; default: the year
                of a kubectl logs --timestamps prefix or a Docker log record's
                time, else the current year — last year's if
                that puts the first line after today)
  --service S   OTLP service.name (default sample-controller)
`;

const FORMATS = ["chrome", "otlp", "jsonl"] as const;
type OutFormat = (typeof FORMATS)[number];

interface Flags {
  file: string;
  to: OutFormat;
  /** Undefined: stdout — `-o -` too, as "-" for FILE is stdin. */
  out: string | undefined;
  year: number | undefined;
  service: string | undefined;
}

function parse(argv: string[]): Flags | "help" {
  const { values, positionals } = parseFileArgs(argv, {
    to: { type: "string" },
    out: { type: "string", short: "o" },
    year: { type: "string" },
    service: { type: "string" },
  });
  if (values.help) return "help";
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? "one FILE only" : "FILE is required");
  const to = values.to;
  if (to === undefined) throw new UsageError("--to is required (chrome, otlp or jsonl)");
  if (!(FORMATS as readonly string[]).includes(to))
    throw new UsageError(`--to must be chrome, otlp or jsonl (not "${to}")`);
  return {
    file: positionals[0],
    to: to as OutFormat,
    out: values.out === "-" ? undefined : values.out,
    year: intFlag("year", values.year, 1970, 9999),
    service: values.service,
  };
}

/** Collects what the writers produce and hands it to the stream with backpressure. */
class Output {
  private parts: string[] = [];
  private size = 0;
  readonly push = (chunk: string) => {
    this.parts.push(chunk);
    this.size += chunk.length;
  };

  constructor(private readonly stream: Writable) {}

  get pending(): number {
    return this.size;
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(text)) await new Promise<void>((r) => this.stream.once("drain", r));
  }
}

/** Reads either kind of input into events. */
interface EventSource {
  push(chunk: Uint8Array): TraceEvent[];
  end(): TraceEvent[];
  readonly diagnostics: Diagnostic[];
  /** "jsonl", "klog" or "chrome", once known. */
  format(): string | undefined;
  /** Why the input is not a trace ("is empty", "has no …"), to follow its name; else undefined. */
  notATrace(): string | undefined;
  /**
   * A loopscope JSONL input's header once its first line is read, or the one a Chrome input
   * carries (written from a JSONL trace); else undefined.
   */
  header(): TraceHeader | undefined;
}

function chromeSource(): EventSource {
  const r = new ChromeTraceReader();
  return {
    push: (c) => r.push(c),
    end: () => r.end(),
    diagnostics: r.diagnostics,
    format: () => "chrome",
    notATrace: () =>
      r.records === 0
        ? "has no Chrome trace events"
        : r.events === 0
          ? `has ${r.records} Chrome trace events but no loopscope events among them (only files written by --to chrome can be read back)`
          : undefined,
    header: () => r.header,
  };
}

function traceSource(year: number | undefined, head: ExportHead | undefined): EventSource {
  const r = new TraceReader(year !== undefined ? { year } : {});
  return {
    push: (c) => r.push(c),
    end: () => r.end(),
    diagnostics: r.diagnostics,
    format: () => r.format,
    // As stats and replay say it (an OTLP export read as JSONL gave 0 events and exit 0).
    notATrace: () => whyNotATrace(r, head),
    header: () => r.header,
  };
}

export async function run(argv: string[]): Promise<number> {
  const err = (line: string) => process.stderr.write(`loopscope convert: ${line}\n`);
  const parsed = flagsOrExit(argv, parse, usage, err);
  if ("exit" in parsed) return parsed.exit;
  const { flags } = parsed;

  let input;
  try {
    // OUT first: stdin flows once opened, and an await between would lose what came meanwhile.
    if (flags.out) await checkOutputFile(flags.out, flags.file);
    input = await openTraceInput(flags.file);
  } catch (e) {
    if (!(e instanceof InputError || e instanceof OutputFileError)) throw e;
    err(e.message);
    return 1;
  }

  const file = flags.out ? openOutput(flags.out) : undefined;
  const releaseSignals = flags.out ? abandonOnSignal(flags.out) : undefined;
  const gzip = flags.out?.endsWith(".gz") ? createGzip() : undefined;
  if (gzip && file) gzip.pipe(file);
  const stream: Writable = gzip ?? file ?? process.stdout;
  const streamFailed = new Promise<never>((_, reject) => {
    stream.once("error", reject);
    file?.once("error", reject);
  });
  streamFailed.catch(() => {});
  const out = new Output(stream);
  const source = flags.file;
  let reader: EventSource | undefined;
  let sink: { push(e: TraceEvent): void; end(): void; summary(): string };
  if (flags.to === "jsonl") {
    let n = 0;
    // Written with the first event, once the input's first line is read. A JSONL input's header
    // is kept as it was — `created`, `source` and its other fields, which readers keep and write
    // back (docs/trace-format.md): the events still come from that recording. Any other input's
    // names the file it was read from.
    let headed = false;
    const head = () => {
      if (headed) return;
      headed = true;
      out.push(encodeHeader(reader?.header() ?? { source }));
    };
    sink = {
      push: (e) => {
        head();
        n++;
        out.push(encodeEvent(e));
      },
      end: head,
      summary: () => count(n, "event"),
    };
  } else {
    // Made with the first event, as the JSONL header is: a Chrome file carries a JSONL input's
    // header (its `created`, `scenario`, `cluster`), and reading it back gives it again; OTLP
    // carries it as resource attributes.
    let made: { writer: ChromeTraceWriter | OtlpTraceWriter; pipe: ExportPipeline } | undefined;
    const make = () => {
      if (made) return made;
      const header = reader?.header();
      const writer =
        flags.to === "chrome"
          ? new ChromeTraceWriter(out.push, { source, ...(header ? { header } : {}) })
          : new OtlpTraceWriter(out.push, {
              source,
              ...(header ? { header } : {}),
              ...(flags.service ? { serviceName: flags.service } : {}),
            });
      return (made = { writer, pipe: new ExportPipeline(writer) });
    };
    sink = {
      push: (e) => make().pipe.push(e),
      end: () => make().pipe.end(),
      summary: () => {
        const { writer } = make();
        return writer instanceof ChromeTraceWriter
          ? `${count(writer.counts.passes, "pass", "passes")}, ${count(writer.counts.flows, "arrow")}, ${count(writer.counts.records, "trace event")}`
          : `${count(writer.counts.spans, "span")}, ${count(writer.counts.spanEvents, "span event")}, ${count(writer.counts.links, "link")}${
              writer.counts.unplaced > 0
                ? `; ${count(writer.counts.unplaced, "event")} left out (more than a viewer draws on one span)`
                : ""
            }`;
      },
    };
  }

  let events = 0;
  try {
    const work = (async () => {
      const damage = {
        inputStopped: (why: string) =>
          err(`warning: ${input.name}: the data stops early (${why}); converting what came before`),
        inputFailedCheck: (why: string) =>
          err(`warning: ${input.name}: ${why}; converting all of it, but any line may be corrupt`),
      };
      for await (const chunk of upToDamage(input.chunks, damage)) {
        reader ??= looksLikeChromeTrace(new TextDecoder().decode(chunk.subarray(0, 4096)))
          ? chromeSource()
          : traceSource(flags.year, exportHead(chunk));
        for (const e of reader.push(chunk)) {
          sink.push(e);
          events++;
        }
        if (out.pending > 1 << 16) await out.flush();
      }
      reader ??= traceSource(flags.year, undefined);
      for (const e of reader.end()) {
        sink.push(e);
        events++;
      }
      const why = reader.notATrace();
      if (why) throw new InputError(`${input.name} ${why}`);
      sink.end();
      await out.flush();
    })();
    // If the output fails first, `work` may still reject later: that is already reported.
    work.catch(() => {});
    await Promise.race([work, streamFailed]);
    if (file && flags.out) {
      stream.end();
      await Promise.race([finished(file), streamFailed]);
      await commitOutput(flags.out);
    }
  } catch (e) {
    if (file && flags.out) {
      stream.destroy();
      file.destroy();
      await abandonOutput(flags.out);
    }
    if (e instanceof InputError) {
      err(e.message);
      return 1;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (code) {
      err(outputFailure(flags.out ?? "stdout", e as NodeJS.ErrnoException));
      return 1;
    }
    throw e;
  } finally {
    releaseSignals?.();
  }

  const diags = reader?.diagnostics ?? [];
  err(
    `${flags.file}: ${count(events, "event")} (${reader?.format() ?? "empty"}) → ${flags.out ?? "stdout"} (${flags.to}): ${sink.summary()}`,
  );
  for (const d of diags.slice(0, 10)) err(`  line ${d.line}: ${d.message}`);
  if (diags.length > 10) err(`  … ${count(diags.length - 10, "more problem")}`);
  return 0;
}
