import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fileChunks, GzipCheckFailed, streamChunks } from "./fileChunks.ts";

function bytes(n: number, seed: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >>> 16;
  }
  return b;
}

async function readAll(file: Blob, gz: boolean, stallMs?: number) {
  const chunks: Uint8Array[] = [];
  let counted = 0;
  for await (const c of fileChunks(file, gz, (n) => (counted += n), stallMs))
    chunks.push(c.slice());
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return { all, chunks, counted };
}

/**
 * A Blob whose stream hands out its first `streamed` bytes in 1000-byte parts and then ends, or
 * never settles another read (as Chromium's once did), or fails; its slices say where they start.
 */
class StallingBlob extends Blob {
  readonly sliceStarts: number[] = [];
  cancelled = false;
  constructor(
    private readonly data: Uint8Array<ArrayBuffer>,
    private readonly streamed: number,
    private readonly then: "end" | "stall" | "fail",
  ) {
    super([data]);
  }
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    let at = 0;
    return new ReadableStream<Uint8Array<ArrayBuffer>>(
      {
        pull: (ctl) => {
          if (at >= this.streamed) {
            if (this.then === "end") return ctl.close();
            if (this.then === "fail") return ctl.error(new Error("NotReadableError"));
            return new Promise<void>(() => undefined);
          }
          const n = Math.min(1000, this.streamed - at);
          ctl.enqueue(this.data.slice(at, at + n));
          at += n;
        },
        cancel: () => {
          this.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
  }
  override slice(start?: number, end?: number): Blob {
    this.sliceStarts.push(start ?? 0);
    return super.slice(start, end);
  }
}

describe("fileChunks", () => {
  it.each([0, 1, 32767, 32768, 32769, 170_000, 5_000_123])(
    "reads a plain file of %i bytes whole and in order, through its stream",
    async (n) => {
      const data = bytes(n, n + 1);
      const file = new StallingBlob(data, n, "end");
      const { all, counted } = await readAll(file, false, 1000);
      expect(Buffer.from(all).equals(Buffer.from(data))).toBe(true);
      expect(counted).toBe(n);
      expect(file.sliceStarts).toEqual([]);
    },
  );

  it.each([0, 1, 64_000, 99_999])(
    "a stream that stalls after %i of 5 MB: the rest is read by slices from there, the first small",
    async (streamed) => {
      const data = bytes(5_000_123, 7);
      const file = new StallingBlob(data, streamed, "stall");
      const { all, chunks, counted } = await readAll(file, false, 50);
      expect(Buffer.from(all).equals(Buffer.from(data))).toBe(true);
      expect(counted).toBe(data.length);
      expect(file.sliceStarts[0]).toBe(streamed);
      expect(file.cancelled).toBe(true);
      const sliced = chunks.slice(Math.ceil(streamed / 1000));
      expect(sliced[0].length).toBeLessThanOrEqual(32768);
      expect(sliced.every((c) => c.length > 0 && c.length <= 4 << 20)).toBe(true);
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

  it("reads all of a gzip file whose check fails at its end, then says so (GzipCheckFailed)", async () => {
    // Small (one decompression call's worth) and big: the trailer's CRC32, or size, off.
    const line = "I1202 09:00:00.000227 1 c.go:1] STAGE/watch key=a/b\n";
    for (const [text, at, check] of [
      [line.repeat(100), 8, "data"],
      [line.repeat(100), 4, "length"],
      [line.repeat(50_000), 8, "data"],
    ] as const) {
      const gz = gzipSync(text);
      gz[gz.length - at] ^= 0x01;
      const got: Uint8Array[] = [];
      const stopped = await (async () => {
        for await (const c of fileChunks(new Blob([gz]), true, () => {})) got.push(c.slice());
      })().catch((err: unknown) => err);
      expect(stopped).toBeInstanceOf(GzipCheckFailed);
      expect((stopped as Error).message).toBe(`incorrect ${check} check`);
      expect(Buffer.concat(got).toString()).toBe(text);
    }
  });

  it("reads a gzip file broken inside its data up to the damage", async () => {
    // Stored (level 0) blocks: the second one's length check broken, the first one's bytes whole.
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i} of a log that is long\n`).join(
      "",
    );
    const gz = gzipSync(text, { level: 0 });
    const first = gz.readUInt16LE(11);
    expect(10 + 5 + first).toBeLessThan(gz.length - 8);
    gz[10 + 5 + first + 3] ^= 0xff;
    const got: Uint8Array[] = [];
    const stopped = await (async () => {
      for await (const c of fileChunks(new Blob([gz]), true, () => {})) got.push(c.slice());
    })().catch((err: unknown) => err);
    expect(stopped).toBeInstanceOf(Error);
    expect(stopped).not.toBeInstanceOf(GzipCheckFailed);
    const read = Buffer.concat(got).toString();
    expect(text.startsWith(read)).toBe(true);
    expect(read.length).toBeGreaterThan(first / 2);
  });

  it("a file that cannot be read fails the read instead of ending it early", async () => {
    const file = new StallingBlob(bytes(100_000, 3), 50_000, "fail");
    await expect(readAll(file, false, 1000)).rejects.toThrow("NotReadableError");
    expect(file.sliceStarts).toEqual([]);
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
