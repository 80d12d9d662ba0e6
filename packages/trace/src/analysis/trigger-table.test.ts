import { describe, expect, it } from "vitest";
import { TriggerTable } from "./trigger-table.ts";
import { PASS_CAUSES } from "./model.ts";

/** Seqs past 2^32 and near the largest safe integer: the table keeps any safe integer exactly. */
const BIG = Number.MAX_SAFE_INTEGER - 100_000;

describe("TriggerTable", () => {
  it("gives back every trigger as it was added, across chunks, with only the seqs it has", () => {
    const t = new TriggerTable();
    const n = 10_000; // more than two chunks of 4096
    for (let i = 0; i < n; i++) {
      const row = t.add(
        BIG + i,
        i % 2 ? BIG + i + 1 : undefined,
        i % 3 ? 2 ** 33 + i : undefined,
        PASS_CAUSES[i % 5],
        i % 7 === 0,
      );
      expect(row).toBe(i);
    }
    expect(t.size).toBe(n);
    for (const i of [0, 1, 2, 3, 4095, 4096, 4097, 8191, 8192, n - 1]) {
      expect(t.cause(i)).toBe(PASS_CAUSES[i % 5]);
      expect(t.inferred(i)).toBe(i % 7 === 0);
      expect(t.next(i)).toBe(-1);
      const want: Record<string, unknown> = {
        enqueueSeq: BIG + i,
        cause: PASS_CAUSES[i % 5],
        inferred: i % 7 === 0,
      };
      if (i % 2) want.watchSeq = BIG + i + 1;
      if (i % 3) want.writeSeq = 2 ** 33 + i;
      // Strict: an absent seq is no property at all, as on the triggers the Analyzer built.
      expect(t.list(i, 1)).toStrictEqual([want]);
    }
  });

  it("keeps interleaved lists apart, each in the order it was linked, across chunks", () => {
    const t = new TriggerTable();
    const lists = 3;
    const first = [-1, -1, -1];
    const last = [-1, -1, -1];
    const want: number[][] = [[], [], []];
    for (let i = 0; i < 9000; i++) {
      const k = i % 7 === 0 ? 0 : i % 2 ? 1 : 2; // lists of unequal lengths
      const row = t.add(i, undefined, undefined, "self", false);
      if (last[k] < 0) first[k] = row;
      else t.link(last[k], row);
      last[k] = row;
      want[k].push(i);
    }
    for (let k = 0; k < lists; k++) {
      expect(t.list(first[k], want[k].length).map((x) => x.enqueueSeq)).toEqual(want[k]);
      expect(t.next(last[k])).toBe(-1);
    }
    // A list's head taken partway: a pass that took the first two triggers sees only those.
    expect(t.list(first[1], 2).map((x) => x.enqueueSeq)).toEqual(want[1].slice(0, 2));
  });
});
