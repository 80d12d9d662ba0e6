import { describe, expect, it } from "vitest";
import { rng } from "../testing/random-trace.ts";
import { asUtf8, utf16Of } from "./utf16.ts";

const TEXT =
  "I1202 09:14:06.031380   48211 controller.go:338] STAGE/enqueue key=default/foo len=1\n" +
  'I1202 09:14:06.031381   48211 controller.go:131] "note" text="Ä 😀 ü"\r\n' +
  "a last line without a newline 😀";

function utf16(text: string, encoding: "utf-16le" | "utf-16be"): Uint8Array {
  const le = Buffer.from(text, "utf16le");
  if (encoding === "utf-16le") return Uint8Array.from([0xff, 0xfe, ...le]);
  const be = Uint8Array.from(le);
  for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1], le[i]];
  return Uint8Array.from([0xfe, 0xff, ...be]);
}

/** `bytes` cut at random places (a code unit or a surrogate pair split across chunks). */
async function* cut(bytes: Uint8Array, seed: number): AsyncGenerator<Uint8Array> {
  const r = rng(seed);
  for (let at = 0; at < bytes.length;) {
    const n = 1 + Math.floor(r() * 9);
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function all(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

describe("asUtf8", () => {
  for (const encoding of ["utf-16le", "utf-16be"] as const) {
    it(`re-encodes ${encoding} text after its mark as UTF-8, however it is cut`, async () => {
      for (let seed = 1; seed <= 30; seed++) {
        const out = await all(asUtf8(cut(utf16(TEXT, encoding), seed)));
        expect(Buffer.concat(out).toString("utf8")).toBe(TEXT);
      }
    });
  }

  it("passes anything else through as it is, chunk for chunk", async () => {
    const chunks = [new TextEncoder().encode("\uFEFFI1202 a line\n"), new Uint8Array([0, 1, 2])];
    const out = await all(
      asUtf8(
        (async function* () {
          yield* chunks;
        })(),
      ),
    );
    expect(out).toEqual(chunks);
    expect(out[0]).toBe(chunks[0]);
    const one = await all(
      asUtf8(
        (async function* () {
          yield Uint8Array.of(0x49);
        })(),
      ),
    );
    expect(one).toEqual([Uint8Array.of(0x49)]);
  });

  it("ends an odd last byte as U+FFFD, as any undecodable byte", async () => {
    const bytes = utf16("ab", "utf-16le");
    const out = await all(asUtf8(cut(Uint8Array.from([...bytes, 0x63]), 3)));
    expect(Buffer.concat(out).toString("utf8")).toBe("ab\uFFFD");
  });
});

describe("utf16Of", () => {
  it("tells a UTF-16 mark, in either order, from everything else", () => {
    expect(utf16Of(Uint8Array.from([0xff, 0xfe, 0x49]))).toBe("utf-16le");
    expect(utf16Of(Uint8Array.from([0xfe, 0xff]))).toBe("utf-16be");
    expect(utf16Of(Uint8Array.from([0xef, 0xbb, 0xbf]))).toBeUndefined();
    expect(utf16Of(Uint8Array.from([0xff]))).toBeUndefined();
    expect(utf16Of(new TextEncoder().encode("I1202"))).toBeUndefined();
  });
});
