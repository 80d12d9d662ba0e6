import { describe, expect, it } from "vitest";
import { paintDelays } from "./paint-delays.ts";

const frame = (at: number, drawnSeq: number) => ({ at, drawnSeq, storeSeq: drawnSeq });

describe("emit → paint delays", () => {
  it("paints each event at the first frame that drew it or a later seq", () => {
    // seq 10..14 emitted at 100..104; frames at 120 (drew 11), 130 (drew 14).
    const d = paintDelays(10, [100, 101, 102, 103, 104], [frame(130, 14), frame(120, 11)]);
    expect(d).toEqual([20, 19, 28, 27, 26]);
  });

  it("does not un-paint when a later frame drew less, and leaves unpainted events NaN", () => {
    const d = paintDelays(1, [0, 0, 0], [frame(10, 2), frame(20, 1), frame(30, 0)]);
    expect(d).toEqual([10, 10, NaN]);
  });

  it("ignores frames that only drew events before the run", () => {
    const d = paintDelays(50, [5, 6], [frame(7, 40), frame(9, 51)]);
    expect(d).toEqual([4, 3]);
  });
});
