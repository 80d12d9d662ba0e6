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
 * The bytes of a stream (a fetch's body, still arriving), chunk by chunk, gunzipped when its
 * first bytes are gzip's magic number. `read` counts the stream's bytes as they arrive.
 */
export async function* streamChunks(
  stream: ReadableStream<Uint8Array>,
  read: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const it = stream.getReader();
  let first = await it.read();
  // Two bytes tell gzip apart; a first chunk of one byte (possible, if unlikely) waits for more.
  while (!first.done && first.value.byteLength < 2) {
    const more = await it.read();
    if (more.done) break;
    first = { done: false, value: concat(first.value, more.value) };
  }
  if (first.done) return;
  const head = first.value;
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    let ended = false;
    try {
      read(head.byteLength);
      yield head;
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
  const rest = new ReadableStream<Uint8Array>({
    start(ctl) {
      ctl.enqueue(head);
    },
    async pull(ctl) {
      const { value, done } = await it.read();
      if (done) ctl.close();
      else ctl.enqueue(value);
    },
    cancel: (reason) => it.cancel(reason),
  });
  yield* gunzipChunks(rest, read);
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

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
