/**
 * The file a command writes its result to (`convert -o OUT`). It is checked before any work and
 * written beside OUT under another name, then renamed over it at the end: a run that fails leaves
 * an existing OUT as it was, and OUT can never be the input file being read (opening it for
 * writing would empty it before a byte was read — the input, gone).
 */
import { stat, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

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

/** The result is complete: it takes OUT's place. */
export async function commitOutput(out: string): Promise<void> {
  await rename(partialPath(out), out);
}

/** The run failed: its partial result goes, OUT stays as it was. */
export async function abandonOutput(out: string): Promise<void> {
  await rm(partialPath(out), { force: true });
}
