import { describe, expect, it } from "vitest";
import { SeqLists } from "./seq-lists.ts";

describe("SeqLists", () => {
  it("keeps interleaved lists apart, each in its order, across chunks, seqs exact", () => {
    const s = new SeqLists();
    const lists = 5;
    const first = new Array<number>(lists).fill(-1);
    const last = new Array<number>(lists).fill(-1);
    const want: number[][] = Array.from({ length: lists }, () => []);
    const n = 10_000; // more than two chunks of 4096
    for (let i = 0; i < n; i++) {
      const k = (i * i) % lists; // uneven: lists 0, 1 and 4 only
      const seq = i % 2 ? Number.MAX_SAFE_INTEGER - i : i;
      const row = s.add(seq, last[k]);
      expect(row).toBe(i);
      if (last[k] < 0) first[k] = row;
      last[k] = row;
      want[k].push(seq);
    }
    expect(s.size).toBe(n);
    for (let k = 0; k < lists; k++) {
      if (want[k].length === 0) continue;
      expect(s.list(first[k], want[k].length)).toEqual(want[k]);
      expect(s.next(last[k])).toBe(-1);
    }
    for (const i of [0, 1, 4095, 4096, 4097, 8191, 8192, n - 1])
      expect(s.seq(i)).toBe(i % 2 ? Number.MAX_SAFE_INTEGER - i : i);
  });

  it("walks a list row by row", () => {
    const s = new SeqLists();
    const a = s.add(10, -1);
    const b = s.add(99, -1);
    const a2 = s.add(11, a);
    expect([s.next(a), s.next(a2), s.next(b)]).toEqual([a2, -1, -1]);
    expect(s.list(a, 2)).toEqual([10, 11]);
    expect(s.list(a, 0)).toEqual([]);
  });
});
