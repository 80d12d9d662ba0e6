/**
 * The file a command writes its result to (`convert -o OUT`). It is checked before any work and
 * written beside OUT under another name, then renamed over it at the end: a run that fails leaves
 * an existing OUT as it was, and OUT can never be the input file being read (opening it for
 * writing would empty it before a byte was read — the input, gone).
 *
 * OUT "-" is stdout, as "-" for an input is stdin: written as it comes, with nothing to rename.
 */
import { createWriteStream } from "node:fs";
import { stat, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { Writable } from "node:stream";

/** OUT that means stdout. */
export const STDOUT = "-";

/** OUT cannot be written: the message says why, in words a user can act on. */
export class OutputFileError extends Error {}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** Throws OutputFileError unless `out` can be written in place of `input` ("-" = stdin). */
export async function checkOutputFile(out: string, input: string): Promise<void> {
  const target = await statOrUndefined(out);
  if (target?.isDirectory()) throw new OutputFileError(`${out}: is a directory`);
  if (target && input !== "-") {
    const source = await statOrUndefined(input);
    if (source && source.dev === target.dev && source.ino === target.ino) {
      throw new OutputFileError(
        `${out} is the input file: write the result to another file (left ${input} as it was)`,
      );
    }
  }
  const dir = dirname(out);
  const parent = await statOrUndefined(dir);
  if (parent === undefined) throw new OutputFileError(`${out}: no such directory ${dir}`);
  if (!parent.isDirectory()) throw new OutputFileError(`${out}: ${dir} is not a directory`);
}

/** Where the result is written until it is complete. */
export function partialPath(out: string): string {
  return `${out}.partial-${process.pid}`;
}

/** Where to write OUT's result: stdout for "-", else its partial file (see commitOutput). */
export function openOutput(out: string): Writable {
  return out === STDOUT ? process.stdout : createWriteStream(partialPath(out));
}

/**
 * Waits until what was written to `stream` (from openOutput) is out. A file is ended; stdout is
 * not: ended, a pipe is closed, and anything written to stdout after it would fail (EPIPE).
 */
export function closeOutput(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (err?: Error | null) => (err ? reject(err) : resolve());
    if (stream === process.stdout) stream.write("", done);
    else stream.end(done);
  });
}

/** The result is complete: it takes OUT's place. */
export async function commitOutput(out: string): Promise<void> {
  if (out !== STDOUT) await rename(partialPath(out), out);
}

/** The run failed: its partial result goes, OUT stays as it was. */
export async function abandonOutput(out: string): Promise<void> {
  if (out !== STDOUT) await rm(partialPath(out), { force: true });
}
