import { describe, expect, it } from "vitest";
import { PassTable } from "./pass-table.ts";
import type { Trigger } from "./model.ts";

describe("PassTable", () => {
  it("gives back every row as it was written, across chunks", () => {
    const t = new PassTable();
    const n = 10_000; // more than two chunks of 4096
    const trigger: Trigger = { enqueueSeq: 1, cause: "external", inferred: false };
    for (let i = 0; i < n; i++) {
      const row = t.add(
        i % 7,
        i,
        i + 1,
        1.7e15 + i,
        i % 2 ? [trigger] : [],
        i % 3 ? "self" : "retry",
        i % 2 === 0,
        i % 5 ? 10 * i : undefined,
        i % 4 ? 2 : undefined,
      );
      expect(row).toBe(i);
      if (i % 3 === 0) t.setEnd(row, 1.7e15 + i + 0.5, 10 * i + 1);
      if (i % 11 === 0) t.setOutcome(row, i % 2 ? "requeued" : "synced");
      if (i % 13 === 0) t.setWriteSeqs(row, [i]);
    }
    for (const i of [0, 1, 4095, 4096, 4097, 8191, 8192, n - 1]) {
      const p = t.pass(i, `k${i % 7}`);
      expect(t.keyId(i)).toBe(i % 7);
      expect(p).toEqual({
        key: `k${i % 7}`,
        index: i,
        number: i + 1,
        start: 1.7e15 + i,
        triggers: i % 2 ? [trigger] : [],
        cause: i % 3 ? "self" : "retry",
        inferred: i % 2 === 0,
        writeSeqs: i % 13 === 0 ? [i] : [],
        changingWrites: 0,
        noopWrites: 0,
        conflicts: 0,
        changedFields: [],
        fromMarkers: i % 5 === 0,
        dequeueSeq: i % 5 ? 10 * i : undefined,
        worker: i % 4 ? 2 : undefined,
        readSeq: undefined,
        changingWriteSeqs: undefined,
        endSeq: i % 3 === 0 ? 10 * i + 1 : undefined,
        end: i % 3 === 0 ? 1.7e15 + i + 0.5 : undefined,
        outcome: i % 11 === 0 ? (i % 2 ? "requeued" : "synced") : undefined,
      });
    }
  });

  it("keeps the first read and worker, and ends an open pass at its start", () => {
    const t = new PassTable();
    const row = t.add(0, 0, 1, 100, [], "unknown", false, undefined, undefined);
    t.noteRead(row, 5);
    t.noteRead(row, 6);
    t.noteWorker(row, 3);
    t.noteWorker(row, 4);
    t.endAtStartIfOpen(row);
    const p = t.pass(row, "k");
    expect([p.readSeq, p.worker, p.end, p.fromMarkers]).toEqual([5, 3, 100, true]);
    t.setEnd(row, 200, undefined);
    t.endAtStartIfOpen(row);
    expect(t.end(row)).toBe(200);
  });

  it("calls a requeued pass that only conflicted a stumble", () => {
    const t = new PassTable();
    const row = t.add(0, 0, 1, 100, [], "self", false, 1, 1);
    t.addConflict(row);
    expect(t.isStumble(row)).toBe(false);
    t.setOutcome(row, "requeued");
    expect(t.isStumble(row)).toBe(true);
    t.addChangingWrites(row, 1);
    expect(t.isStumble(row)).toBe(false);
  });
});
