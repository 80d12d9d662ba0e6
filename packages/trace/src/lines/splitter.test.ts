import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineSplitter } from "./splitter.ts";

function split(chunks: (Uint8Array | string)[]): {
  lines: string[];
  terminated: boolean[];
  numbers: number[];
} {
  const s = new LineSplitter();
  const lines: string[] = [];
  const terminated: boolean[] = [];
  const numbers: number[] = [];
  const sink = (l: string, n: number, t: boolean) => {
    lines.push(l);
    numbers.push(n);
    terminated.push(t);
  };
  for (const c of chunks) s.push(c, sink);
  s.end(sink);
  return { lines, terminated, numbers };
}

const enc = new TextEncoder();

describe("LineSplitter", () => {
  it("splits LF and CRLF, numbers lines, delivers a torn last line as unterminated", () => {
    const r = split(["a\r\nb\n", "c"]);
    expect(r.lines).toEqual(["a", "b", "c"]);
    expect(r.numbers).toEqual([1, 2, 3]);
    expect(r.terminated).toEqual([true, true, false]);
  });

  it("keeps a multi-byte character split across byte chunks whole", () => {
    const bytes = enc.encode("größe=1 ✓\nnext 🙂\n");
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(split([bytes.subarray(0, cut), bytes.subarray(cut)]).lines).toEqual([
        "größe=1 ✓",
        "next 🙂",
      ]);
    }
  });

  it("drops a leading byte-order mark only", () => {
    expect(split([new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode("x\n")]).lines).toEqual(["x"]);
  });

  it("gives the same lines however the input is chunked (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (text, cuts, asBytes) => {
          const whole = split([text]).lines;
          const data = asBytes ? enc.encode(text) : text;
          const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
          const chunks: (Uint8Array | string)[] = [];
          let prev = 0;
          for (const p of [...points, data.length]) {
            chunks.push(data.slice(prev, p));
            prev = p;
          }
          expect(split(chunks).lines).toEqual(whole);
        },
      ),
    );
  });
});

describe("LineSplitter on an input whose lines end in a lone \\r", () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"x".repeat(i % 50)}`);
  const body = lines.join("\r") + "\r";

  it("ends a line at each \\r, however the input is chunked, as bytes or as text", () => {
    const bytes = enc.encode(body);
    for (const size of [1, 7, 4096, 65536, bytes.length]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const r = split(chunks);
      expect(r.lines).toEqual(lines);
      expect(r.terminated.every(Boolean)).toBe(true);
    }
    expect(split([body]).lines).toEqual(lines);
    // Once the input is known to be CR (64 KiB without a "\n"), "\r\n" is one end, across chunks too.
    expect(split([bytes, "a\r", "\nb\r\nc"]).lines).toEqual([...lines, "a", "b", "c"]);
  });

  it("keeps a lone \\r inside a line of an input with \\n", () => {
    expect(split(["a\rb\nc\r\n", "d\re"]).lines).toEqual(["a\rb", "c", "d\re"]);
  });

  it("decides on the first 64 KiB alone, however they are chunked", () => {
    const bytes = (text: string) => enc.encode(text);
    const chunkings = (b: Uint8Array) =>
      [1000, 4093, 65_536, 100_000, b.length].map((size) => {
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < b.length; at += size) chunks.push(b.subarray(at, at + size));
        return split(chunks).lines;
      });
    // A "\n" just past the first 64 KiB: "\r" ends the lines.
    const late = bytes("a\r" + "x".repeat(66_000) + "\nb\rc\r");
    for (const lines of chunkings(late)) expect(lines).toEqual(["a", "x".repeat(66_000), "b", "c"]);
    // A "\r" only past them, and no "\n" at all: one line, the "\r" in it.
    const noCr = bytes("x".repeat(66_000) + "\ry");
    for (const lines of chunkings(noCr)) expect(lines).toEqual(["x".repeat(66_000) + "\ry"]);
  });
});
