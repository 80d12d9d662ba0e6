import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { KeySummary } from "@loopscope/trace";
import { encodeSummaries, SummaryTable } from "./summaryColumns.ts";

const count = fc.nat({ max: 1e6 });
const summary = (key: string): fc.Arbitrary<KeySummary> =>
  fc.record({
    key: fc.constant(key),
    firstTs: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    byStage: fc.record({ watch: count, enqueue: count, dequeue: count, read: count, write: count }),
    passes: count,
    passCauses: fc.record({
      external: count,
      self: count,
      resync: count,
      retry: count,
      unknown: count,
    }),
    selfTriggered: count,
    writes: count,
    changingWrites: count,
    noopWrites: count,
    conflicts: count,
    reconcilesForCreate: fc.option(count, { nil: null }),
    listed: fc.boolean(),
    quiescent: fc.boolean(),
    deleted: fc.boolean(),
    hotLoop: fc.boolean(),
  });

describe("summary columns", () => {
  it("give back every summary field for field, across batches, the latest per key", () => {
    const keys = ["default/a", "default/b", "ns-1/c", "x"];
    const batches = fc.array(
      fc
        .uniqueArray(fc.constantFrom(...keys), { minLength: 0 })
        .chain((ks) => fc.tuple(...ks.map(summary))),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(batches, (list) => {
        const table = new SummaryTable();
        const latest = new Map<string, KeySummary>();
        for (const batch of list) {
          // Through a structured clone, as a message from the worker.
          table.add(structuredClone(encodeSummaries(batch)));
          for (const s of batch) latest.set(s.key, s);
          // toEqual: fast-check builds some records without a prototype.
          for (const k of keys) expect(table.get(k)).toEqual(latest.get(k));
        }
      }),
    );
  });

  it("grows past its first room", () => {
    const table = new SummaryTable();
    const many = Array.from({ length: 1000 }, (_, i) => ({
      key: `k${i}`,
      firstTs: i,
      byStage: { watch: i, enqueue: 0, dequeue: 0, read: 0, write: 0 },
      passes: i,
      passCauses: { external: 0, self: 0, resync: 0, retry: 0, unknown: i },
      selfTriggered: 0,
      writes: 0,
      changingWrites: 0,
      noopWrites: 0,
      conflicts: 0,
      reconcilesForCreate: i % 2 ? null : i,
      listed: i % 5 === 0,
      quiescent: i % 3 === 0,
      deleted: i % 7 === 0,
      hotLoop: false,
    }));
    table.add(encodeSummaries(many.slice(0, 500)));
    table.add(encodeSummaries(many.slice(500)));
    for (const s of many) expect(table.get(s.key)).toStrictEqual(s);
  });
});
