import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fileChunks, streamChunks } from "./fileChunks.ts";

function bytes(n: number, seed: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >>> 16;
  }
  return b;
}

async function readAll(file: Blob, gz: boolean) {
  const chunks: Uint8Array[] = [];
  let counted = 0;
  for await (const c of fileChunks(file, gz, (n) => (counted += n))) chunks.push(c.slice());
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return { all, chunks, counted };
}

/** A Blob that cannot be streamed: the plain path must not need `stream()` (see fileChunks). */
class SliceOnlyBlob extends Blob {
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    throw new Error("stream() called");
  }
}

describe("fileChunks", () => {
  it.each([0, 1, 32767, 32768, 32769, 170_000, 5_000_123, 12_000_000])(
    "reads a plain file of %i bytes whole, in order, by slices, the first one small",
    async (n) => {
      const data = bytes(n, n + 1);
      const { all, chunks, counted } = await readAll(new SliceOnlyBlob([data]), false);
      expect(all.length).toBe(n);
      expect(Buffer.from(all).equals(Buffer.from(data))).toBe(true);
      expect(counted).toBe(n);
      if (n > 0) expect(chunks[0].length).toBeLessThanOrEqual(32768);
      expect(chunks.every((c) => c.length > 0 && c.length <= 4 << 20)).toBe(true);
    },
  );

  it("reads a gzip file through decompression, counting compressed bytes", async () => {
    const text = new TextEncoder().encode(
      "I1202 09:00:00.000227 1 c.go:1] STAGE/watch key=a/b\n".repeat(50_000),
    );
    const gz = gzipSync(text);
    const { all, counted } = await readAll(new Blob([gz]), true);
    expect(Buffer.from(all).equals(Buffer.from(text))).toBe(true);
    expect(counted).toBe(gz.length);
  });

  it("a file that cannot be read fails the read instead of ending it early", async () => {
    class Unreadable extends SliceOnlyBlob {
      override slice(): Blob {
        return { arrayBuffer: () => Promise.reject(new Error("NotReadableError")) } as Blob;
      }
    }
    await expect(readAll(new Unreadable([bytes(100_000, 3)]), false)).rejects.toThrow(
      "NotReadableError",
    );
  });
});

/** A stream that hands out `parts` one read at a time, and says whether it was cancelled. */
function partsStream(parts: Uint8Array[]) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(ctl) {
        if (state.pulled === parts.length) ctl.close();
        else ctl.enqueue(parts[state.pulled++]);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** `n` bytes cut into parts of the given sizes, then whatever is left as one part. */
function cut(data: Uint8Array, sizes: number[]): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const n of sizes) {
    parts.push(data.slice(at, at + n));
    at += n;
  }
  if (at < data.length) parts.push(data.slice(at));
  return parts;
}

async function readStream(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  let counted = 0;
  for await (const c of streamChunks(stream, (n) => (counted += n))) chunks.push(c.slice());
  return { all: Buffer.concat(chunks), counted };
}

describe("streamChunks", () => {
  const text = new TextEncoder().encode(
    "I1202 09:00:00.000227 1 c.go:1] STAGE/watch key=a/b\n".repeat(20_000),
  );

  it.each([[[]], [[1]], [[1, 1]], [[65_536, 3, 100_000]]])(
    "reads a plain stream whole and in order (first parts %j)",
    async (sizes) => {
      const { all, counted } = await readStream(partsStream(cut(text, sizes)).stream);
      expect(all.equals(Buffer.from(text))).toBe(true);
      expect(counted).toBe(text.length);
    },
  );

  it("reads an empty stream as nothing", async () => {
    const { all, counted } = await readStream(partsStream([]).stream);
    expect(all.length).toBe(0);
    expect(counted).toBe(0);
  });

  it("cancels the stream (the download) when the reader stops early", async () => {
    const { stream, state } = partsStream(cut(text, [1000, 1000, 1000]));
    for await (const c of streamChunks(stream, () => undefined)) {
      expect(c.length).toBe(1000);
      break;
    }
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(4);
  });
});
