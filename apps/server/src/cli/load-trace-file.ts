/**
 * Reads a trace file through packages/trace's reader and Analyzer, with progress on a terminal.
 * Shared by `stats` and `excerpt`; throws InputError (exit 1) when the input is not a trace.
 */
import {
  Analyzer,
  exportHead,
  TraceReader,
  whyNotATrace,
  type AnalyzerOptions,
  type ExportHead,
  type TraceEvent,
} from "@loopscope/trace";
import { InputError, openTraceInput, upToDamage } from "./input.ts";
import { progressMeter } from "./progress.ts";
import { decodeUtf8 } from "./utf8.ts";

export interface LoadOptions extends AnalyzerOptions {
  year?: number;
  /** Keep every event in memory (the excerpt needs them; stats does not). */
  keepEvents?: boolean;
}

export interface LoadedFile {
  reader: TraceReader;
  analyzer: Analyzer;
  events: TraceEvent[];
}

export async function loadTraceFile(path: string, opts: LoadOptions = {}): Promise<LoadedFile> {
  const input = await openTraceInput(path);
  const reader = new TraceReader({
    decode: decodeUtf8,
    ...(opts.year !== undefined ? { year: opts.year } : {}),
  });
  const analyzer = new Analyzer(opts);
  const events: TraceEvent[] = [];
  const progress = progressMeter(input.name, input.size, input.bytesRead);
  let first = true;
  let head: ExportHead | undefined;
  const take = opts.keepEvents
    ? (e: TraceEvent) => {
        analyzer.push(e);
        events.push(e);
      }
    : (e: TraceEvent) => analyzer.push(e);
  try {
    for await (const chunk of upToDamage(input.chunks, (why) => reader.inputStopped(why))) {
      if (first) {
        first = false;
        head = exportHead(chunk);
      }
      reader.push(chunk, take);
      progress.update();
    }
    reader.end(take);
  } finally {
    progress.done();
  }
  refuseNonTrace(reader, input.name, head);
  return { reader, analyzer, events };
}

/**
 * Throws InputError when a whole input read gave no trace: empty, binary data, no events in it,
 * or an export (`head`: what its first chunk looked like; see packages/trace's not-a-trace.ts).
 */
export function refuseNonTrace(
  reader: TraceReader,
  name: string,
  head: ExportHead | undefined,
): void {
  const why = whyNotATrace(reader, head);
  if (why !== undefined) throw new InputError(`${name} ${why}`);
}
