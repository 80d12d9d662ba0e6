/**
 * The file a command writes its result to (`convert -o OUT`). It is checked before any work and
 * written beside OUT under another name, then renamed over it at the end: a run that fails leaves
 * an existing OUT as it was, and OUT can never be the input file being read (opening it for
 * writing would empty it before a byte was read — the input, gone).
 *
 * OUT "-" is stdout, as "-" for an input is stdin: written as it comes, with nothing to rename.
 * So is an OUT that is no regular file — a FIFO, a terminal, /dev/null: renaming over it would
 * put a plain file in its place, and its reader would wait for ever. A symbolic link is written
 * through: the file it points to is the one replaced, the link stays.
 *
 * The new file takes an existing OUT's permission bits (a private 0600 file stays private, and its
 * partial file is never readable by more than OUT was); it is a new file all the same, so its owner
 * is whoever runs the command, and a hard link to OUT is not kept — the other name keeps the old
 * contents.
 */
import { createWriteStream, readlinkSync, realpathSync, rmSync, statSync } from "node:fs";
import { chmod, stat, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
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

/**
 * The file OUT names, through symbolic links (a dangling one names the file it would create), and
 * whether it is written in place: it exists and is no regular file.
 */
function destination(out: string): { path: string; inPlace: boolean; mode?: number } {
  let path = out;
  try {
    path = realpathSync(out);
  } catch {
    try {
      path = resolve(dirname(out), readlinkSync(out));
    } catch {
      // Not a link: OUT itself, yet to be made.
    }
  }
  let regular = true;
  let mode: number | undefined;
  try {
    const s = statSync(path);
    regular = s.isFile();
    mode = s.mode & 0o7777;
  } catch {
    // Does not exist yet: it will be a regular file.
  }
  return { path, inPlace: !regular, mode };
}

/**
 * Whether OUTs `a` and `b` name one file (`x.jsonl` and `./x.jsonl`, or a link to it): two
 * results written there would be renamed over each other, the first lost.
 */
export function sameOutputFile(a: string, b: string): boolean {
  return resolve(destination(a).path) === resolve(destination(b).path);
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
  const dir = dirname(destination(out).path);
  const parent = await statOrUndefined(dir);
  if (parent === undefined) throw new OutputFileError(`${out}: no such directory ${dir}`);
  if (!parent.isDirectory()) throw new OutputFileError(`${out}: ${dir} is not a directory`);
}

/** Errors writing a file, in words a user can act on (errno codes, as strerror says them). */
const IN_WORDS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  EIO: "input/output error",
};

/**
 * What went wrong writing OUT, as `OUT: why`: the file the user named, not the partial file
 * beside it that was being written (its name is ours, not theirs), and the error in words.
 */
export function outputFailure(out: string, err: NodeJS.ErrnoException): string {
  const words = err.code === undefined ? undefined : IN_WORDS[err.code];
  if (words !== undefined) return `${out}: ${words}`;
  // Another error: Node's message, its "CODE: " and the partial file's name left out.
  const message = err.message.replace(/^[A-Z]+: /, "").replace(/, \w+ '[^']*\.partial-\d+'$/, "");
  return `${out}: ${message}`;
}

/** Where the result is written until it is complete. */
function partialPath(path: string): string {
  return `${path}.partial-${process.pid}`;
}

/**
 * Where to write OUT's result: stdout for "-", OUT itself if it is no regular file, else its
 * partial file (see commitOutput).
 */
export function openOutput(out: string): Writable {
  if (out === STDOUT) return process.stdout;
  const { path, inPlace, mode } = destination(out);
  if (inPlace) return createWriteStream(path);
  // Made with OUT's bits, less the umask's: never readable by more than OUT was.
  return createWriteStream(partialPath(path), mode === undefined ? {} : { mode });
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
  if (out === STDOUT) return;
  const { path, inPlace, mode } = destination(out);
  if (inPlace) return;
  // OUT's bits exactly, the umask's cut undone (a 0666 file stays 0666).
  if (mode !== undefined) await chmod(partialPath(path), mode);
  await rename(partialPath(path), path);
}

/** The run failed: its partial result goes, OUT stays as it was. */
export async function abandonOutput(out: string): Promise<void> {
  if (out === STDOUT) return;
  const { path, inPlace } = destination(out);
  if (!inPlace) await rm(partialPath(path), { force: true });
}

/**
 * Until the returned function is called, SIGINT or SIGTERM removes OUT's partial result and ends
 * the process as the signal would (exit 130 or 143): Ctrl-C leaves no half-written file beside OUT.
 */
export function abandonOnSignal(out: string): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    const { path, inPlace } = destination(out);
    if (!inPlace) rmSync(partialPath(path), { force: true });
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}
