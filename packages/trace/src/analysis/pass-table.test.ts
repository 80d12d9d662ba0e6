import { describe, expect, it } from "vitest";
import { PassTable } from "./pass-table.ts";
import type { Trigger } from "./model.ts";
import { TriggerTable } from "./trigger-table.ts";

describe("PassTable", () => {
  it("gives back every row as it was written, across chunks", () => {
    const triggers = new TriggerTable();
    const t = new PassTable(triggers);
    const n = 10_000; // more than two chunks of 4096
    const trigger = (i: number): Trigger => ({ enqueueSeq: i, cause: "external", inferred: false });
    for (let i = 0; i < n; i++) {
      const first = i % 2 ? triggers.add(i, undefined, undefined, "external", false) : -1;
      const row = t.add(
        i % 7,
        i,
        i + 1,
        1.7e15 + i,
        first,
        i % 2,
        i % 3 ? "self" : "retry",
        i % 2 === 0,
        i % 5 ? 10 * i : undefined,
        i % 4 ? 2 : undefined,
        i >= 7 ? i - 7 : -1, // each of the 7 keys' rows a chain
      );
      expect(row).toBe(i);
      if (i % 3 === 0) t.setEnd(row, 1.7e15 + i + 0.5, 10 * i + 1);
      if (i % 11 === 0) t.setOutcome(row, i % 2 ? "requeued" : "synced");
      if (i % 13 === 0) t.addWrite(row, i);
      if (i % 17 === 0) t.setRun(row, i % 9);
    }
    for (const i of [0, 1, 4095, 4096, 4097, 8191, 8192, n - 1]) {
      const p = t.pass(i, `k${i % 7}`);
      expect(t.keyId(i)).toBe(i % 7);
      expect(t.previous(i)).toBe(i >= 7 ? i - 7 : -1);
      expect(p).toEqual({
        key: `k${i % 7}`,
        index: i,
        number: i + 1,
        start: 1.7e15 + i,
        triggers: i % 2 ? [trigger(i)] : [],
        cause: i % 3 ? "self" : "retry",
        inferred: i % 2 === 0,
        writeSeqs: i % 13 === 0 ? [i] : [],
        changingWrites: 0,
        noopWrites: 0,
        conflicts: 0,
        loopRun: i % 17 === 0 ? i % 9 : 0,
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

  it("keeps each pass's triggers, writes and changing writes, lists interleaved over chunks", () => {
    const triggers = new TriggerTable();
    const t = new PassTable(triggers);
    const n = 9000;
    // Triggers gathered for passes 0, 1, 2 at once, taken over when each opens.
    const first = [-1, -1, -1];
    const last = [-1, -1, -1];
    for (let i = 0; i < 3000; i++) {
      const k = i % 3;
      const row = triggers.add(i, i + 0.5 > 1500 ? i - 1 : undefined, undefined, "self", true);
      if (last[k] < 0) first[k] = row;
      else triggers.link(last[k], row);
      last[k] = row;
    }
    for (let i = 0; i < n; i++) {
      const row = t.add(
        0,
        i,
        i + 1,
        i,
        i < 3 ? first[i] : -1,
        i < 3 ? 1000 : 0,
        "self",
        true,
        i,
        1,
        i - 1,
      );
      expect(t.triggerCount(row)).toBe(i < 3 ? 1000 : 0);
      expect(t.writeCount(row)).toBe(0);
      expect(t.firstWriteSeq(row)).toBeUndefined();
    }
    // Writes of rows 0, 4096 and n - 1 interleaved (seqs past 2^32), and changing writes found in
    // an order that is not the writes' own.
    const rows = [0, 4096, n - 1];
    const seq = (row: number, j: number): number => 2 ** 40 + row * 10_000 + j;
    for (let j = 0; j < 5000; j++) for (const row of rows) t.addWrite(row, seq(row, j));
    for (const row of rows) {
      expect(t.pass(row, "k").changingWriteSeqs).toBeUndefined();
      for (const j of [7, 3, 4999, 0]) t.addChangingWrite(row, seq(row, j));
    }
    for (const row of rows) {
      const p = t.pass(row, "k");
      expect(t.writeCount(row)).toBe(5000);
      expect(t.firstWriteSeq(row)).toBe(seq(row, 0));
      expect(p.writeSeqs).toEqual(Array.from({ length: 5000 }, (_, j) => seq(row, j)));
      expect(p.changingWriteSeqs).toEqual([7, 3, 4999, 0].map((j) => seq(row, j)));
      expect(p.changingWrites).toBe(4);
    }
    for (let k = 0; k < 3; k++) {
      const p = t.pass(k, "k");
      expect(p.triggers.map((x) => x.enqueueSeq)).toEqual(
        Array.from({ length: 1000 }, (_, j) => 3 * j + k),
      );
      expect(p.triggers[999]).toStrictEqual({
        enqueueSeq: 2997 + k,
        watchSeq: 2996 + k,
        cause: "self",
        inferred: true,
      });
    }
    // Empty lists are the shared frozen one; a pass with none has no changing-write list.
    const empty = t.pass(5, "k");
    expect(empty.triggers).toBe(empty.writeSeqs);
    expect(Object.isFrozen(empty.triggers)).toBe(true);
    expect(empty.changingWriteSeqs).toBeUndefined();
  });

  it("adopts one late trigger: its list and the cause it makes", () => {
    const triggers = new TriggerTable();
    const t = new PassTable(triggers);
    const row = t.add(0, 0, 1, 100, -1, 0, "unknown", false, 1, 1, -1);
    const trig = triggers.add(2, 1, 0, "self", true);
    t.setTriggers(row, trig, 1, "self", true);
    const p = t.pass(row, "k");
    expect([p.cause, p.inferred, t.triggerCount(row)]).toEqual(["self", true, 1]);
    expect(p.triggers).toStrictEqual([
      { enqueueSeq: 2, watchSeq: 1, cause: "self", inferred: true, writeSeq: 0 },
    ]);
  });

  it("hands out lists of its own to each Pass it builds", () => {
    const t = new PassTable(new TriggerTable());
    const row = t.add(0, 0, 1, 100, -1, 0, "self", false, 1, 1, -1);
    t.addWrite(row, 5);
    const before = t.pass(row, "k");
    t.addWrite(row, 6);
    t.addChangingWrite(row, 6);
    expect(before.writeSeqs).toEqual([5]);
    expect(before.changingWriteSeqs).toBeUndefined();
    const after = t.pass(row, "k");
    t.fill(row, "k", before);
    expect(before).toEqual(after);
    expect(before.writeSeqs).not.toBe(after.writeSeqs);
  });

  it("keeps the first read and worker, and ends an open pass at its start", () => {
    const t = new PassTable(new TriggerTable());
    const row = t.add(0, 0, 1, 100, -1, 0, "unknown", false, undefined, undefined, -1);
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
    const t = new PassTable(new TriggerTable());
    const row = t.add(0, 0, 1, 100, -1, 0, "self", false, 1, 1, -1);
    t.addConflict(row);
    expect(t.isStumble(row)).toBe(false);
    t.setOutcome(row, "requeued");
    expect(t.isStumble(row)).toBe(true);
    t.addChangingWrite(row, 2);
    expect(t.isStumble(row)).toBe(false);
  });
});
