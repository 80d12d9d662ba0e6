/**
 * The store's size target: a million events in ≤ 150 bytes each (catapult pays ~1.5 KB per slice;
 * see docs on performance anchors). Counted at capacity, string tables included.
 */
import { describe, expect, it } from "vitest";
import { syntheticBatches } from "../testing/synthetic.ts";
import { TraceStore } from "./traceStore.ts";

describe("TraceStore at scale", () => {
  it("holds 1,000,000 events in at most 150 bytes per event and still rebuilds them", () => {
    const store = new TraceStore();
    let sample: unknown;
    for (const batch of syntheticBatches(1_000_000)) {
      if (!sample) sample = batch[4];
      store.append(batch);
    }
    expect(store.length).toBe(1_000_000);
    const perEvent = store.bytes() / store.length;
    console.log(`TraceStore: ${perEvent.toFixed(1)} B/event at 1M events`);
    expect(perEvent).toBeLessThanOrEqual(150);
    expect(store.event(4)).toEqual(sample);
    expect(store.rowOfSeq(999_999)).toBe(999_998);
  });
});
