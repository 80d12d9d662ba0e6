/**
 * The bytes of a dropped or fetched trace file, or of a trace still arriving over HTTP, chunk by
 * chunk, for the replay's reader worker.
 */

/**
 * A plain file is read through its stream (default reader): in Chromium 156, against reads of
 * 4 MB slices, a 1M-event klog load took 5–12 % less time and ~10 % less CPU, with 3–5 % fewer
 * page faults (every slice was a round trip the reader waited for, into fresh memory). But a
 * read of a file's stream has been seen never to settle in Chromium (a BYOB read, near the end
 * of a 120 MB file, 3 loads of 8): a read that has not settled after STALL_MS is taken for that,
 * the stream is dropped, and the rest of the file is read by slices from where it stopped.
 */
const STALL_MS = 5000;

/**
 * Size of the reads by slices. The first reads are smaller, and the size grows to this: the first
 * rows reach the page (first paint) after a few thousand lines, not after a megabyte of them.
 */
const READ_BYTES = 1 << 22;
const FIRST_READ_BYTES = 1 << 15;

/**
 * The file's bytes, chunk by chunk: a plain file through its stream (by slices after a stall, see
 * STALL_MS), a gzip file through DecompressionStream. `read` counts the file's bytes as they are
 * read (compressed bytes for gzip). `stallMs`: for tests.
 */
export async function* fileChunks(
  file: Blob,
  gz: boolean,
  read: (bytes: number) => void,
  stallMs = STALL_MS,
): AsyncGenerator<Uint8Array> {
  if (gz) {
    yield* gunzipChunks(file.stream(), read);
    return;
  }
  const from = yield* streamUntilStall(file, read, stallMs);
  if (from !== undefined) yield* sliceChunks(file, from, read);
}

/**
 * The file's stream, chunk by chunk, until it ends (undefined) or a read stalls: then the offset
 * the rest starts at.
 */
async function* streamUntilStall(
  file: Blob,
  read: (bytes: number) => void,
  stallMs: number,
): AsyncGenerator<Uint8Array, number | undefined> {
  const it = file.stream().getReader();
  let at = 0;
  let ended = false;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<"stalled">(
        (r) => (timer = setTimeout(() => r("stalled"), stallMs)),
      );
      const next = await Promise.race([it.read(), stalled]).finally(() => clearTimeout(timer));
      if (next === "stalled") return at;
      if ((ended = next.done)) return undefined;
      at += next.value.byteLength;
      read(next.value.byteLength);
      yield next.value;
    }
  } finally {
    // Stalled, or the consumer stopped early: let the stream go (a stalled read stays unsettled).
    if (!ended) it.cancel().catch(() => undefined);
  }
}

/** The file from `from` on, by slices read one ahead (a read waited for is a round trip). */
async function* sliceChunks(
  file: Blob,
  from: number,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const slice = (at: number, size: number) => file.slice(at, at + size).arrayBuffer();
  let size = FIRST_READ_BYTES;
  let next = slice(from, size);
  // Handled here too: a read still running when the consumer stops must not go unhandled.
  next.catch(() => undefined);
  for (let at = from; at < file.size;) {
    const bytes = new Uint8Array(await next);
    at += size;
    size = Math.min(READ_BYTES, size * 4);
    if (at < file.size) {
      next = slice(at, size);
      next.catch(() => undefined);
    }
    read(bytes.byteLength);
    yield bytes;
  }
}

/**
 * The bytes of a stream (a replay server's trace, still arriving: JSONL text, which fetch has
 * already decoded of any Content-Encoding), chunk by chunk. `read` counts them as they arrive.
 */
export async function* streamChunks(
  stream: ReadableStream<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const it = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await it.read();
      if ((ended = done)) return;
      read(value.byteLength);
      yield value;
    }
  } finally {
    // A consumer that stops early (a cancelled load) stops the download too.
    if (!ended) it.cancel().catch(() => undefined);
  }
}

/**
 * A gzip file whose data came out whole but failed its check at its end (the trailer's CRC32 or
 * size): every line is there, and any may be corrupt. `message` is zlib's ("incorrect data
 * check").
 */
export class GzipCheckFailed extends Error {}

/**
 * Compressed bytes handed to DecompressionStream at a time: the first piece, and the most (they
 * double up to it). A write that meets damage gives none of its output (in Chromium as in Node),
 * so damage loses no more than a piece's worth of input — the rule `loopscope stats` reads by
 * (apps/server's cli/input.ts).
 */
const GZ_FIRST_PIECE = 512;
const GZ_PIECE = 64 << 10;
/** A gzip member's trailer: the CRC32 and the size of its data. */
const GZ_TRAILER = 8;

/**
 * A gzip stream's decompressed bytes; `read` counts the compressed bytes. The input goes in by
 * pieces (see GZ_PIECE), each written once the one before is decompressed, and its last
 * GZ_TRAILER bytes on their own: a trailer that fails its check then loses nothing, and throws
 * GzipCheckFailed. Other damage throws DecompressionStream's error, after what came before it.
 */
async function* gunzipChunks(
  gzip: ReadableStream<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const unzip = new DecompressionStream("gzip") as unknown as TransformStream<
    Uint8Array,
    Uint8Array
  >;
  const writer = unzip.writable.getWriter();
  const input = gzip.getReader();
  let atTrailer = false;
  const feed = async () => {
    let held: Uint8Array = new Uint8Array(0);
    let fed = 0;
    for (;;) {
      const { value, done } = await input.read();
      if (done) break;
      read(value.byteLength);
      // The bytes held back were not the trailer after all: they go first (or with a short one).
      let data: Uint8Array = value;
      if (held.length > 0 && value.length >= GZ_TRAILER) {
        fed += held.length;
        await writer.write(held);
      } else if (held.length > 0) {
        data = new Uint8Array(held.length + value.length);
        data.set(held);
        data.set(value, held.length);
      }
      const upTo = Math.max(0, data.length - GZ_TRAILER);
      for (let at = 0, end = 0; at < upTo; at = end) {
        end = Math.min(upTo, at + Math.min(GZ_PIECE, Math.max(GZ_FIRST_PIECE, fed)));
        fed += end - at;
        await writer.write(data.subarray(at, end));
      }
      held = data.subarray(upTo);
    }
    atTrailer = true;
    await writer.write(held);
    await writer.close();
  };
  // A failed write has errored the output too, which says why; a failed read of the file has not.
  feed().catch((err: unknown) => writer.abort(err).catch(() => undefined));
  const it = unzip.readable.getReader();
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await it.read();
      if ((ended = done)) return;
      yield value;
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : "";
    const check = /incorrect (data|length) check/.exec(message);
    if (atTrailer && check) throw new GzipCheckFailed(check[0]);
    // Chromium names the call that met the damage when it was ours ("Failed to execute 'close'
    // on 'WritableStreamDefaultWriter': Compressed input was truncated."): said without it.
    const call = /^Failed to execute '\w+' on '\w+': /.exec(message);
    if (call) throw new Error(message.slice(call[0].length));
    throw err;
  } finally {
    // A consumer that stops early (a cancelled load) stops reading the file too.
    if (!ended) {
      it.cancel().catch(() => undefined);
      input.cancel().catch(() => undefined);
    }
  }
}
