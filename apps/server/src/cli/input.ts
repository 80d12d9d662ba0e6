/**
 * Opens a trace for reading: a path, "-" for stdin, gzip detected by its magic bytes (so a
 * `.gz` without the suffix works too), UTF-16 text (Windows PowerShell's `>`) by its byte-order
 * mark and read as UTF-8. A path that is not a regular file — a named pipe
 * (`mkfifo`), the pipe of a shell's `<(cat f)`, a terminal — is read once, as a stream, like
 * stdin: it cannot be read at an offset, nor opened twice. Failures become `InputError` with a
 * one-line reason the CLI prints as is (exit 1) — never a stack trace.
 */
import { createReadStream } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";
import { constants, createGunzip, type Gunzip } from "node:zlib";
import type { Readable, Writable } from "node:stream";
import { asUtf8, utf16Of } from "@loopscope/trace";

export class InputError extends Error {}

/**
 * Compressed data that stops or breaks partway: what came before it decompressed fine. Or, when
 * `failedCheck`, data that decompressed whole but failed its check at its end (gzip's CRC32 or
 * size): every byte came out, and any may be corrupt.
 */
export class DamagedInputError extends InputError {
  constructor(
    message: string,
    /** Why, without the file's name ("unexpected end of file"). */
    readonly why: string,
    readonly failedCheck = false,
  ) {
    super(message);
  }
}

export interface TraceInput {
  /**
   * The text as UTF-8 (decompressed, re-encoded from UTF-16), in chunks. A chunk is valid only
   * until the next one is asked for: a plain file is read into reused buffers (the readers copy
   * what they keep of a chunk).
   */
  chunks: AsyncIterable<Uint8Array>;
  /** Size of the file on disk (compressed), when known: for progress. */
  size: number | undefined;
  /** Bytes of the file read so far (compressed). */
  bytesRead(): number;
  name: string;
  /**
   * The chunks are the file's own bytes at their offsets, so a replay may read lines back from
   * it: a plain UTF-8 file's. Not a gzip file's, nor a UTF-16 file's (re-encoded), nor a pipe's.
   */
  readBack: boolean;
}

const CHUNK = 1 << 20;
/**
 * Compressed bytes handed to gunzip at a time: the first piece, and the most (pieces double up to
 * it). zlib hands over nothing of a call that fails, so damage loses what that call decompressed
 * before it — at most a piece's worth of input, and never more than half of what came before.
 * Much smaller pieces cost time: 16 KB ones read a 5 MB file at half the speed.
 */
const GZ_FIRST_PIECE = 512;
const GZ_PIECE = 64 << 10;
/** A gzip member's trailer: the CRC32 and the size of its data. */
const GZ_TRAILER = 8;

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
      return `corrupt gzip data (${e.message})`;
    default:
      return e?.message ?? String(err);
  }
}

/** The file's first two bytes (fewer in a shorter file). */
async function headOf(path: string): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    const buf = new Uint8Array(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The input with its chunks as UTF-8 (see asUtf8): the readers read one encoding. */
function utf8(input: Omit<TraceInput, "readBack">, readBack: boolean): TraceInput {
  return { ...input, chunks: asUtf8(input.chunks), readBack };
}

export async function openTraceInput(path: string): Promise<TraceInput> {
  if (path === "-") return utf8(fromStream(process.stdin, "stdin", undefined, false), false);
  let size: number;
  let head: Uint8Array;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!info.isFile()) {
      // Sniffed as it streams: opening a pipe to look at its first bytes would take them away
      // (or, for a FIFO, end the writer's side).
      const pipe = createReadStream(path, { highWaterMark: CHUNK });
      return utf8(fromStream(pipe, path, undefined, false), false);
    }
    size = info.size;
    head = await headOf(path);
  } catch (err) {
    throw new InputError(`${path}: ${describe(err)}`);
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b)
    return utf8(fromFile(path, size), utf16Of(head) === undefined);
  const file = createReadStream(path, { highWaterMark: CHUNK });
  return utf8(fromStream(file, path, size, true), false);
}

/**
 * A plain file, read into two buffers in turn: the next chunk is read (on libuv's thread pool)
 * while the caller works on this one, so the reader never waits for the disk or the page cache.
 * Reused buffers, not a stream's: a stream's chunks are new memory each, and faulting in a fresh
 * megabyte per chunk cost more CPU than the klog reader's own work on it (~0.35 s per 190 MB
 * here, against 0.02 s for reused buffers).
 */
function fromFile(path: string, size: number): Omit<TraceInput, "readBack"> {
  let read = 0;
  const chunks = async function* (): AsyncGenerator<Uint8Array> {
    let fh: FileHandle | undefined;
    let ahead: Promise<number> | undefined;
    try {
      fh = await open(path, "r");
      const file = fh;
      const buffers = [new Uint8Array(CHUNK), new Uint8Array(CHUNK)];
      const fill = (b: Uint8Array): Promise<number> =>
        file.read(b, 0, CHUNK, null).then((r) => r.bytesRead);
      ahead = fill(buffers[0]);
      for (let turn = 0; ; turn ^= 1) {
        const bytesRead = await ahead;
        ahead = undefined;
        if (bytesRead === 0) return;
        read += bytesRead;
        // The other buffer's chunk was handed out before this one: the caller is done with it.
        ahead = fill(buffers[turn ^ 1]);
        yield buffers[turn].subarray(0, bytesRead);
      }
    } catch (err) {
      throw new InputError(`${path}: ${describe(err)}`);
    } finally {
      // A caller that stops early leaves a read in flight: let it land before closing.
      await ahead?.catch(() => undefined);
      await fh?.close();
    }
  };
  return {
    chunks: chunks(),
    size,
    bytesRead: () => read,
    name: path,
  };
}

function fromStream(
  source: Readable,
  name: string,
  size: number | undefined,
  gzipKnown: boolean,
): Omit<TraceInput, "readBack"> {
  let read = 0;
  source.on("data", (b: Buffer) => {
    read += b.length;
  });
  const chunks = async function* (): AsyncGenerator<Uint8Array> {
    try {
      let stream: AsyncIterable<Buffer> = source;
      if (gzipKnown) stream = gunzip(source, name);
      else if (size === undefined) stream = sniffGzip(source, name);
      for await (const b of stream) yield b;
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${name}: ${describe(err)}`);
    }
  };
  return {
    chunks: chunks(),
    size,
    bytesRead: () => read,
    name,
  };
}

/** stdin or a pipe: decompress when the first bytes say gzip. */
async function* sniffGzip(source: Readable, name: string): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  if (first.done) return;
  const head: Buffer = first.value;
  const rest = async function* () {
    yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  };
  if (head[0] === 0x1f && head[1] === 0x8b) yield* gunzip(rest(), name);
  else yield* rest();
}

/**
 * `source`, gzip, decompressed up to any damage, which throws DamagedInputError: zlib hands over
 * nothing of the call that meets it, so the input goes in pieces (see GZ_PIECE: damage in the
 * data loses no more than a piece's worth before it) and its last GZ_TRAILER bytes on their own (a
 * trailer that fails its check — a flipped bit anywhere, or in the CRC itself — loses nothing:
 * everything before it came out of earlier calls, as `zcat` prints it all before it complains),
 * then flushed before the end (a file cut short loses nothing either: see the feed's end).
 */
async function* gunzip(source: AsyncIterable<Buffer>, name: string): AsyncGenerator<Buffer> {
  const z = createGunzip({ chunkSize: CHUNK });
  let fed = 0;
  let held: Buffer = Buffer.alloc(0);
  let ended = false;
  const write = async (piece: Buffer): Promise<void> => {
    fed += piece.length;
    if (!z.write(piece)) await drainedOrClosed(z);
  };
  const feed = (async () => {
    for await (const b of source) {
      // The bytes held back were not the trailer after all: they go first (or with a short b).
      let data = b;
      if (held.length > 0) {
        if (b.length >= GZ_TRAILER) await write(held);
        else data = Buffer.concat([held, b]);
      }
      const upTo = Math.max(0, data.length - GZ_TRAILER);
      for (let at = 0, end = 0; at < upTo && !z.destroyed; at = end) {
        end = Math.min(upTo, at + Math.min(GZ_PIECE, Math.max(GZ_FIRST_PIECE, fed)));
        await write(data.subarray(at, end));
      }
      // Stopped reading (damage, or a caller that stopped early): leaving the loop closes source.
      if (z.destroyed) return;
      held = data.subarray(upTo);
    }
    if (z.destroyed) return;
    ended = true;
    // The last bytes alone, then flushed, then the end: zlib ends a stream with Z_FINISH, and
    // hands over nothing of that call when it fails — a file cut short fails there, for want of
    // more input. Flushed first, all it decompressed has come out: only the end fails.
    await write(held);
    if (z.destroyed) return;
    await flushedOrClosed(z);
    if (!z.destroyed) z.end();
  })();
  feed.catch((err: unknown) => z.destroy(err as Error));
  try {
    yield* z as AsyncIterable<Buffer>;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e?.code !== "Z_DATA_ERROR" && e?.code !== "Z_BUF_ERROR") throw err;
    // The check of the last trailer: it failed in the call that had only those bytes, after all
    // the rest was taken in (bytesWritten counts what zlib took in without an error).
    const failedCheck =
      ended &&
      z.bytesWritten + held.length === fed &&
      /^incorrect (data|length) check$/.test(e.message);
    const why = failedCheck
      ? `the gzip data failed its check (${e.message})`
      : `damaged gzip data: ${e.message}`;
    throw new DamagedInputError(`${name}: ${describe(err)}`, why, failedCheck);
  }
}

/** Resolves when what `z` was given has come out of it (Z_SYNC_FLUSH), or it is gone. */
function flushedOrClosed(z: Gunzip): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      z.off("close", done);
      resolve();
    };
    z.on("close", done);
    z.flush(constants.Z_SYNC_FLUSH, done);
  });
}

/** Resolves when `z` takes writes again, or is gone (its reader stopped, or it failed). */
function drainedOrClosed(z: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      z.off("drain", done);
      z.off("close", done);
      resolve();
    };
    z.on("drain", done);
    z.on("close", done);
  });
}

/** Where upToDamage says what it met: a TraceReader (see its inputStopped, inputFailedCheck). */
export interface DamageSink {
  /** The data stops here, for `why`: what came before was read, nothing after. */
  inputStopped(why: string): void;
  /** The data came whole but failed its check at its end (`why`): any line may be corrupt. */
  inputFailedCheck(why: string): void;
}

/**
 * The chunks up to any damage in the compressed data: a gzip file cut short, or broken in its
 * data, still gives what decompressed before the damage, and `sink` is told why it ends there; one
 * whose data fails its check at the end (CRC32, size) gives all of it, and `sink` is told the
 * lines may be corrupt. Damage before the first chunk is an error as before: nothing to read.
 */
export async function* upToDamage(
  chunks: AsyncIterable<Uint8Array>,
  sink: DamageSink,
): AsyncGenerator<Uint8Array> {
  let any = false;
  try {
    for await (const c of chunks) {
      any = true;
      yield c;
    }
  } catch (err) {
    if (!(err instanceof DamagedInputError) || !any) throw err;
    if (err.failedCheck) sink.inputFailedCheck(err.why);
    else sink.inputStopped(err.why);
  }
}
