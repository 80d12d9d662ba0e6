/**
 * The bytes of a dropped or fetched trace file, or of a trace still arriving over HTTP, chunk by
 * chunk, for the replay's reader worker.
 */

/**
 * Size of the reads of a plain file (see `fileChunks`). The first reads are smaller, and the
 * size grows to this: the first rows reach the page (first paint) after a few thousand lines,
 * not after a megabyte of them.
 */
const READ_BYTES = 1 << 22;
const FIRST_READ_BYTES = 1 << 15;

/**
 * The file's bytes, chunk by chunk: a plain file in reads of its slices, a gzip file through
 * DecompressionStream. Not a BYOB read of `file.stream()` into one reused buffer, though that
 * touched less fresh memory: in Chromium such a read at times never settled, and the load
 * stopped for good a few megabytes before the end (3 loads of 8 of a 120 MB klog file here).
 * Slices are read one ahead, and grow to 4 MB: a read waited for costs a round trip to the
 * browser's file reader (1 MB reads without read-ahead made a 1M-event load 20–35 % slower).
 * `read` counts the file's bytes as they are read (compressed bytes for gzip).
 */
export async function* fileChunks(
  file: Blob,
  gz: boolean,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  if (!gz) {
    const slice = (at: number, size: number) => file.slice(at, at + size).arrayBuffer();
    let size = FIRST_READ_BYTES;
    let next = slice(0, size);
    // Handled here too: a read still running when the consumer stops must not go unhandled.
    next.catch(() => undefined);
    for (let at = 0; at < file.size;) {
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
    return;
  }
  yield* gunzipChunks(file.stream(), read);
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
