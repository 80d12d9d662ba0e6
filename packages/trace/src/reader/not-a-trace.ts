/**
 * Why an input read whole is no trace, in words a user can act on: it is empty, it is binary
 * data, it is text with no STAGE events (a README, another program's log or JSON), or it is one
 * of the exports
 * `loopscope convert` writes — which look like JSON records to the reader, so it read them as a
 * JSONL trace whose every line is bad.
 *
 * Only an input that gave no event at all is judged: a trace with a few bad lines still loads
 * (its bad lines reported), and so does a recording with a header and no events yet.
 */
import { MAX_LINE } from "../lines/splitter.ts";

/**
 * What a whole input gave the reader, as far as telling a trace from the rest goes — a
 * TraceReader is one, as it is after reading.
 */
export interface ReadOutcome {
  readonly events: number;
  /** The JSONL trace header, once read (a recording with no events yet is a trace). */
  readonly header: unknown;
  /** The format, once the reader settled it on a line that was not blank. */
  readonly format: string | undefined;
  /** Lines that held NUL bytes. */
  readonly nulLines?: number;
  /** Lines recognized as trace input: klog lines, JSONL records. */
  readonly recognizedLines?: number;
  /** The first line over the length limit (not read), if any. */
  readonly overlongLine?: number;
}

/** What the first bytes of an input say it is, when that is an export of another format. */
export interface ExportHead {
  what: "a Chrome trace export" | "an OTLP/JSON export" | "a JSON log";
  /** Written by `loopscope convert` (so the file it was made from exists somewhere). */
  ours: boolean;
  /** The file `loopscope convert` made it from, as the export names it (not stdin's "-"). */
  source?: string;
}

/** Where each of our exports names the file it was made from (see the writers). */
const CHROME_SOURCE =
  /"producer"\s*:\s*"loopscope"\s*,\s*"format"\s*:\s*"[^"]*"\s*,\s*"source"\s*:\s*("(?:[^"\\]|\\.)*")/;
const OTLP_SOURCE =
  /"key"\s*:\s*"loopscope\.source"\s*,\s*"value"\s*:\s*\{\s*"stringValue"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** The source file an export's head names, if it does. */
function sourceIn(head: string, re: RegExp): string | undefined {
  const m = re.exec(head);
  if (!m) return undefined;
  try {
    const source = JSON.parse(m[1]) as string;
    return source === "" || source === "-" ? undefined : source;
  } catch {
    return undefined;
  }
}

/** How many bytes of the first chunk are looked at. */
const HEAD_BYTES = 4096;

/** Sniffs the first chunk; undefined for anything that is not an export. */
export function exportHead(chunk: Uint8Array): ExportHead | undefined {
  const head = new TextDecoder()
    .decode(chunk.subarray(0, HEAD_BYTES))
    .replace(/^\uFEFF/, "")
    .trimStart();
  // Before the Chrome test: a pretty-printed OTLP file's first line, "{", looks like Chrome's.
  if (/^\{\s*"resourceSpans"\s*:/.test(head)) {
    const ours =
      /"telemetry\.sdk\.name"\s*,\s*"value"\s*:\s*\{\s*"stringValue"\s*:\s*"loopscope"/.test(head);
    const source = ours ? sourceIn(head, OTLP_SOURCE) : undefined;
    return { what: "an OTLP/JSON export", ours, ...(source ? { source } : {}) };
  }
  // Stricter than convert's looksLikeChromeTrace, which routes any JSON to the Chrome reader:
  // here a wrong guess would name the wrong format to the user.
  const chrome =
    /"traceEvents"\s*:\s*\[/.test(head) ||
    (head.startsWith("[") && /"ph"\s*:\s*"[A-Za-z]"/.test(head));
  if (chrome) {
    const ours = /"producer"\s*:\s*"loopscope"/.test(head);
    const source = ours ? sourceIn(head, CHROME_SOURCE) : undefined;
    return { what: "a Chrome trace export", ours, ...(source ? { source } : {}) };
  }
  // A structured logger's JSON records — component-base's --logging-format=json, zap's
  // (controller-runtime) — carry a message and a time, and no klog header to read.
  const first = head.slice(0, head.indexOf("\n") >>> 0);
  if (/^\{"/.test(first) && /"msg"\s*:/.test(first) && /"ts"\s*:/.test(first))
    return { what: "a JSON log", ours: false };
  return undefined;
}

/**
 * The rest of the one-line reason after the file's name ("README.md has no STAGE events …"), or
 * undefined when the input is a trace.
 */
export function whyNotATrace(read: ReadOutcome, head: ExportHead | undefined): string | undefined {
  if (read.events > 0 || read.header !== undefined) return undefined;
  // NUL bytes and not one line of klog or JSON: binary data. (A log with a run of NULs from a
  // crash in it has its klog lines around them.)
  if ((read.nulLines ?? 0) > 0 && (read.recognizedLines ?? 0) === 0)
    return "is not a text file (binary data)";
  // Not "empty": its one line (or more) was too long to read.
  if (read.format === undefined && read.overlongLine !== undefined)
    return `holds no trace: line ${read.overlongLine} is over the ${MAX_LINE >> 20} MiB limit`;
  if (read.format === undefined) return "is empty";
  if (head?.ours) return `is ${head.what} ${madeFrom(head)}`;
  if (head?.what === "a JSON log")
    return "is a JSON log (--logging-format=json, or zap's): loopscope reads klog's text lines — run the controller with text logging (klog's default) and read that log";
  if (head) return `is ${head.what}, not a loopscope JSONL trace or a klog log of the controller`;
  return "has no STAGE events (not a loopscope JSONL trace or a klog log of the controller)";
}

/**
 * What to open instead of one of our exports: the file it was made from — a klog log as often as
 * a JSONL trace (go-controller.md converts the log) — or, for Chrome's, the trace
 * `loopscope convert --to jsonl` makes of it.
 */
function madeFrom(head: ExportHead): string {
  const open = head.source
    ? `that loopscope convert made from ${head.source}: open that file`
    : "(loopscope convert's output): open the file it was made from";
  return head.what === "a Chrome trace export"
    ? `${open}, or make a trace of this one with loopscope convert FILE --to jsonl`
    : open;
}
