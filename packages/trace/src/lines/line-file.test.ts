import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineFile, type ByteSource } from "./line-file.ts";
import { LineSplitter } from "./splitter.ts";

/** The bytes as a ByteSource (what a Blob or a file handle gives). */
function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (at, n) => bytes.slice(at, at + n) };
}

const utf8 = new TextEncoder();

/**
 * The lines as the reader sees them: split at "\n", a "\r" before it dropped, a BOM dropped; or,
 * with no "\n" in its first 64 KiB and a "\r", split at "\r", "\r\n" and "\n".
 */
function expectedLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body === "") return [];
  const head = new TextDecoder().decode(utf8.encode(text).subarray(0, 65_536));
  if (!head.includes("\n") && head.includes("\r")) {
    const lines = body.split(/\r\n?|\n/);
    if (/[\r\n]$/.test(body)) lines.pop();
    return lines;
  }
  const lines = body.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (body.endsWith("\n")) lines.pop();
  return lines;
}

/** Correct marks for `bytes`: the start of every `every`-th line. */
function marksOf(bytes: Uint8Array, every: number): Float64Array {
  const out: number[] = [];
  let line = 1;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    line++;
    if (line % every === 0) out.push(line, i + 1);
  }
  return Float64Array.from(out);
}

describe("LineFile", () => {
  it("reads any lines back as the reader saw them, with marks or without", async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "grapheme", maxLength: 20 }),
      // Longer than one read of the file (64 KB).
      fc.integer({ min: 65_000, max: 140_000 }).map((n) => "é".repeat(n / 2)),
      fc.constant(""),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          line.map((l) => l.replace(/\n/g, "")),
          { minLength: 1, maxLength: 30 },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        async (lines, crlf, bom, lastNl, every) => {
          const text =
            (bom ? "\ufeff" : "") + lines.join(crlf ? "\r\n" : "\n") + (lastNl ? "\n" : "");
          const bytes = utf8.encode(text);
          const file = new LineFile(bytesSource(bytes));
          file.addMarks(marksOf(bytes, every));
          const want = expectedLines(text);
          const all = await file.read(want.map((_, i) => i + 1).reverse());
          expect([...all.keys()].sort((a, b) => a - b)).toEqual(want.map((_, i) => i + 1));
          for (let i = 0; i < want.length; i++) expect(all.get(i + 1)).toBe(want[i]);
          // One line at a time, and a line past the end left out.
          const k = Math.floor(want.length / 2) + 1;
          const one = await file.read([k, want.length + 1]);
          expect(one.get(k)).toBe(want[k - 1]);
          expect(one.has(want.length + 1)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("finds a line past the last mark (marks arrive while the file loads)", async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${"x".repeat(i % 97)}`);
    const bytes = utf8.encode(text.join("\n") + "\n");
    const file = new LineFile(bytesSource(bytes));
    const marks = marksOf(bytes, 100);
    file.addMarks(marks.subarray(0, 20)); // lines up to 1000 only
    const got = await file.read([1, 999, 1001, 4321, 5000]);
    for (const n of [1, 999, 1001, 4321, 5000]) expect(got.get(n)).toBe(text[n - 1]);
    // Marks already known, again or out of order, change nothing.
    file.addMarks(marks);
    file.addMarks(marks.subarray(0, 10));
    expect((await file.read([4321])).get(4321)).toBe(text[4320]);
  });

  it("reads the lines of a CR-ended file as the reader split them, from any mark", async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${"x".repeat(i % 97)}`);
    // Past its first 64 KiB (which has no "\n", or it would not be CR-ended), a "\r\n" now and
    // then is one end, one of them near a cut between reads of the file (64 KiB) too.
    let body = text.map((l, i) => l + (i % 7 === 3 && i > 2000 ? "\r\n" : "\r")).join("");
    const cut = body.indexOf("\r", 2 * 65_536 - 60);
    body = body.slice(0, cut) + "\r\n" + body.slice(cut + 1);
    const bytes = utf8.encode(body);
    const seen: string[] = [];
    const splitter = new LineSplitter();
    splitter.push(bytes, (l) => seen.push(l));
    splitter.end((l) => seen.push(l));
    expect(seen).toEqual(text);
    // Marks where the reader's lines start: after each "\r", or the "\n" of a "\r\n".
    const marks: number[] = [];
    let line = 1;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 10 && bytes[i - 1] === 13) continue;
      if (bytes[i] !== 13 && bytes[i] !== 10) continue;
      line++;
      if (line % 100 === 0) marks.push(line, bytes[i + 1] === 10 ? i + 2 : i + 1);
    }
    for (const withMarks of [false, true]) {
      const file = new LineFile(bytesSource(bytes));
      if (withMarks) file.addMarks(Float64Array.from(marks));
      const want = [1, 2, 4, 5, 99, 100, 101, 2000, 4321, 5000];
      const got = await file.read(want);
      expect(want.map((n) => got.get(n))).toEqual(want.map((n) => text[n - 1]));
      const all = await file.read(text.map((_, i) => i + 1));
      expect([...all.values()]).toEqual(text);
    }
    // A mark on the "\n" of a "\r\n" cut between reads: that "\n" is the line before's end.
    const file = new LineFile(bytesSource(bytes));
    const lineAfterCut = body.slice(0, cut).split("\r").length + 1;
    file.addMarks(Float64Array.from([lineAfterCut, utf8.encode(body.slice(0, cut + 1)).length]));
    expect((await file.read([lineAfterCut])).get(lineAfterCut)).toBe(text[lineAfterCut - 1]);
  });

  it("keeps replacement characters where the bytes are not UTF-8, like the reader", async () => {
    const bytes = Uint8Array.from([0x61, 0xff, 0x62, 10, 0xe2, 0x82, 10, 0x63]);
    const got = await new LineFile(bytesSource(bytes)).read([1, 2, 3]);
    expect([...got.values()]).toEqual(["a\ufffdb", "\ufffd", "c"]);
  });
});
