import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { indexOfEither, sameSpan, viewOf } from "./byte-span.ts";

describe("sameSpan", () => {
  it("answers as a byte-by-byte comparison, at any offsets and lengths", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 40 }),
        fc.nat(8),
        fc.nat(8),
        fc.nat(40),
        fc.option(fc.tuple(fc.nat(39), fc.integer({ min: 1, max: 255 })), { nil: undefined }),
        (body, padX, padY, lenWanted, flip) => {
          const len = Math.min(lenWanted, body.length);
          const x = new Uint8Array(padX + body.length + 3);
          const y = new Uint8Array(padY + body.length + 5);
          x.set(body, padX);
          y.set(body, padY);
          if (flip !== undefined && body.length > 0) y[padY + (flip[0] % body.length)] ^= flip[1];
          let same = true;
          for (let i = 0; i < len; i++) if (x[padX + i] !== y[padY + i]) same = false;
          expect(sameSpan(viewOf(x), padX, viewOf(y), padY, len)).toBe(same);
        },
      ),
    );
  });

  it("reads a view of a subarray at the subarray's own offsets", () => {
    const whole = new TextEncoder().encode("xxcontroller.go:133]yy");
    const part = whole.subarray(2, 20);
    const loc = new TextEncoder().encode("controller.go:133");
    expect(sameSpan(viewOf(part), 0, viewOf(loc), 0, loc.length)).toBe(true);
    expect(sameSpan(viewOf(part), 1, viewOf(loc), 0, loc.length)).toBe(false);
  });
});

describe("indexOfEither", () => {
  it("finds the first of two bytes as a scan would, never at or past the end", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 9, 32, 61, 93, 0x80, 0xff, 0x20 ^ 0x80, 1, 33, 60), {
          maxLength: 30,
        }),
        fc.nat(30),
        fc.nat(30),
        fc.constantFrom([32, 9], [61, 32], [93, 32]),
        (body, fromWanted, endWanted, [a, b]) => {
          const bytes = Uint8Array.from(body);
          const end = Math.min(endWanted, bytes.length);
          const from = Math.min(fromWanted, end);
          let want = from;
          while (want < end && bytes[want] !== a && bytes[want] !== b) want++;
          expect(indexOfEither(viewOf(bytes), bytes, from, end, a, b)).toBe(want);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
