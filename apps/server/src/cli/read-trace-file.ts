/**
 * Reads a trace file through packages/trace's reader, with progress on a terminal. Shared by
 * `stats` and `excerpt`; throws InputError (exit 1) when the input is not a trace.
 */
import {
  exportHead,
  TraceReader,
  whyNotATrace,
  type ExportHead,
  type TraceEvent,
} from "@loopscope/trace";
import { InputError, openTraceInput, upToDamage } from "./input.ts";
import { progressMeter } from "./progress.ts";
import { decodeUtf8 } from "./utf8.ts";

/**
 * Reads the file (`-`: stdin), handing each event to `take` as it is read, and returns the reader
 * (its format, counts and diagnostics). Nothing is kept here: `stats` analyses as it reads,
 * `excerpt` keeps one Foo's events.
 */
export async function readTraceFile(
  path: string,
  take: (e: TraceEvent) => void,
  opts: { year?: number } = {},
): Promise<TraceReader> {
  const input = await openTraceInput(path);
  const reader = new TraceReader({
    decode: decodeUtf8,
    ...(opts.year !== undefined ? { year: opts.year } : {}),
  });
  const progress = progressMeter(input.name, input.size, input.bytesRead);
  let first = true;
  let head: ExportHead | undefined;
  try {
    for await (const chunk of upToDamage(input.chunks, reader)) {
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
  return reader;
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
