import { describe, expect, it } from "vitest";
import type { TraceEvent } from "@loopscope/trace";
import { TraceStore } from "../store/traceStore.ts";
import { isWireTrace, OFF_THE_WIRE, unseenStages } from "./stageLines.ts";

const watch = (seq: number): TraceEvent => ({
  seq,
  ts: seq,
  key: "ns/a",
  stage: "watch",
  kind: "Foo",
  event: "add",
  name: "a",
  ns: "ns",
});

describe("isWireTrace", () => {
  it("is decided by the first enqueue, however late it comes in a live trace", () => {
    const store = new TraceStore();
    store.append([watch(1), watch(2)]);
    expect(isWireTrace(store)).toBe(false);
    expect(unseenStages(store)).toEqual([]);
    store.append([
      { seq: 3, ts: 3, key: "ns/a", stage: "enqueue", cause: "watch", inferred: true },
    ]);
    expect(isWireTrace(store)).toBe(true);
    expect(unseenStages(store)).toBe(OFF_THE_WIRE);
  });

  it("a controller's own enqueue makes every lane seen", () => {
    const store = new TraceStore();
    store.append([watch(1), { seq: 2, ts: 2, key: "ns/a", stage: "enqueue", cause: "watch" }]);
    store.append([
      { seq: 3, ts: 3, key: "ns/b", stage: "enqueue", cause: "watch", inferred: true },
    ]);
    expect(isWireTrace(store)).toBe(false);
  });
});
