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

/** A gzip stream's decompressed bytes; `read` counts the compressed bytes. */
async function* gunzipChunks(
  gzip: ReadableStream<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const counted = gzip.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        read(chunk.byteLength);
        ctl.enqueue(chunk);
      },
    }),
  );
  const it = counted
    .pipeThrough(
      new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
    )
    .getReader();
  for (;;) {
    const { value, done } = await it.read();
    if (done) return;
    yield value;
  }
}
