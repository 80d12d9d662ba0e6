/**
 * The line splitter's memory bound: a line longer than the limit across chunks is dropped as it
 * arrives and delivered as "" with its length; every other line comes out intact and numbered.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { LineSplitter } from "../lines/splitter.ts";

const LIMIT = 64;

describe("overlong lines", () => {
  it("are dropped with their length; all other lines intact, numbering unbroken", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .string({ unit: "grapheme-ascii", maxLength: 200 })
            .map((s) => s.replace(/[\r\n]/g, "x")),
          {
            maxLength: 30,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (lines, sizes, asText) => {
          const text = lines.map((l) => l + "\n").join("");
          const bytes = new TextEncoder().encode(text);
          const s = new LineSplitter(undefined, LIMIT);
          const got: { line: string; no: number; overlong?: number }[] = [];
          const sink = (line: string, no: number, _t: boolean, overlong?: number) =>
            got.push({ line, no, overlong });
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = sizes[i % sizes.length];
            if (asText) s.push(text.slice(at, at + n), sink);
            else s.push(bytes.subarray(at, at + n), sink);
            at += n;
          }
          s.end(sink);
          expect(got.map((g) => g.no)).toEqual(lines.map((_, i) => i + 1));
          got.forEach((g, i) => {
            if (g.overlong === undefined) expect(g.line).toBe(lines[i]);
            else {
              expect(g.line).toBe("");
              expect(g.overlong).toBe(lines[i].length);
              expect(lines[i].length).toBeGreaterThan(LIMIT);
            }
          });
          // Chunks (≤ 40) are smaller than the limit, so every line over it was dropped.
          got.forEach((g, i) => {
            if (lines[i].length > LIMIT + 40) expect(g.overlong).toBeDefined();
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
