import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ExcerptEvents, readTraceText, type TraceEvent } from "@loopscope/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TraceStore } from "./traceStore.ts";

const FIXTURE = fileURLToPath(
  new URL("../../../../packages/trace/fixtures/stage/create-canonical.log", import.meta.url),
);

function events(): TraceEvent[] {
  return readTraceText(readFileSync(FIXTURE, "utf8")).events;
}

describe("TraceStore", () => {
  it("rebuilds every event losslessly from its row", () => {
    const evs = events();
    expect(evs.length).toBeGreaterThan(20);
    const store = new TraceStore();
    store.append(evs.slice(0, 7));
    store.append(evs.slice(7));
    expect(store.length).toBe(evs.length);
    evs.forEach((e, i) => expect(store.event(i)).toEqual(e));
  });

  it("opens on the Foo `loopscope excerpt` follows: the first added, not the first seen", () => {
    const before: TraceEvent[] = [
      { seq: 1, ts: 1, key: "default/noted", stage: "note", text: "scenario: …" },
      {
        seq: 2,
        ts: 2,
        key: "default/other",
        stage: "watch",
        kind: "Foo",
        event: "update",
        name: "other",
      },
      { seq: 3, ts: 3, key: "default/other", stage: "enqueue" },
    ];
    const evs = [...before, ...events().map((e) => ({ ...e, seq: e.seq + before.length }))];
    const store = new TraceStore();
    store.append(before);
    // Only another Foo's resync so far: the first key of an event that is no note.
    expect(store.defaultKey()).toBe("default/other");
    store.append(evs.slice(before.length));
    const excerpt = new ExcerptEvents();
    for (const e of evs) excerpt.take(e);
    expect(store.defaultKey()).toBe("default/example-foo");
    expect(store.defaultKey()).toBe(excerpt.picked()!.key);
    expect(store.keyList()[0]).toBe("default/noted");
  });

  it("keeps each row's raw log line, any text, absent or empty, across batches", () => {
    const raws = ["I1202 a", undefined, "", 'ünï 😀 "q"', undefined, "x".repeat(70_000), "z"];
    const evs: TraceEvent[] = raws.map((raw, i) => ({
      seq: i + 1,
      ts: i,
      key: "ns/a",
      stage: "note",
      text: "t",
      ...(raw === undefined ? {} : { raw }),
    }));
    const store = new TraceStore();
    store.append(evs.slice(0, 1));
    store.append(evs.slice(1, 2)); // a batch without any line
    store.append(evs.slice(2, 5));
    store.append(evs.slice(5));
    evs.forEach((e, i) => expect(store.event(i), `row ${i}`).toEqual(e));
  });

  it("keeps loopscope proxy's `inferred` on enqueue and done", () => {
    const store = new TraceStore();
    const evs: TraceEvent[] = [
      { seq: 1, ts: 1, key: "ns/a", stage: "enqueue", cause: "watch", inferred: true },
      { seq: 2, ts: 2, key: "ns/a", stage: "done", outcome: "synced", inferred: true },
      { seq: 3, ts: 3, key: "ns/a", stage: "done", outcome: "synced" },
    ];
    store.append(evs);
    evs.forEach((e, i) => expect(store.event(i)).toEqual(e));
  });

  it("keeps odd values that do not fit a numeric column in the detail string", () => {
    const store = new TraceStore();
    const odd: TraceEvent = {
      seq: 5,
      ts: 1,
      key: "ns/a",
      stage: "read",
      rv: "0012",
      extra: { x: [1] },
    };
    const big: TraceEvent = { seq: 9, ts: 2, key: "ns/a", stage: "enqueue", len: 2 ** 40 };
    store.append([odd, big]);
    expect(store.event(0)).toEqual(odd);
    expect(store.event(1)).toEqual(big);
  });

  it("tells apart a key's details that differ in one value, an array element or an extra", () => {
    const w = (seq: number, over: Partial<TraceEvent>): TraceEvent =>
      ({
        seq,
        ts: seq,
        key: "ns/a",
        stage: "write",
        verb: "update",
        target: "deployments/ns/a",
        code: 200,
        changed: true,
        fields: ["spec.replicas"],
        worker: 1,
        ...over,
      }) as TraceEvent;
    // More variants than the encoder remembers per key and stage, revisited out of order.
    const variants: Partial<TraceEvent>[] = [
      {},
      { changed: false },
      { fields: ["spec.template"] },
      { fields: ["spec.replicas", "spec.template"] },
      { verb: "updateStatus", target: "foos/ns/a/status" },
      { worker: 2 },
      { extra: { note: "x" } },
      { extra: { note: "y" } },
      { code: 409, reason: "Conflict" },
    ];
    const evs: TraceEvent[] = [];
    for (let round = 0; round < 3; round++)
      for (const i of [0, 3, 1, 8, 2, 6, 4, 7, 5, 0, 1]) evs.push(w(evs.length + 1, variants[i]));
    const store = new TraceStore();
    store.append(evs.slice(0, 13));
    store.append(evs.slice(13));
    evs.forEach((e, i) => expect(store.event(i)).toEqual(e));
  });

  it("finds rows by seq and lists a key's rows in arrival order", () => {
    const store = new TraceStore();
    store.append([
      { seq: 3, ts: 10, key: "ns/a", stage: "dequeue" },
      { seq: 8, ts: 5, key: "ns/b", stage: "dequeue" },
      { seq: 11, ts: 20, key: "ns/a", stage: "read" },
    ]);
    expect(store.rowOfSeq(8)).toBe(1);
    expect(store.rowOfSeq(4)).toBe(-1);
    expect(Array.from(store.rowsOf("ns/a"))).toEqual([0, 2]);
    expect(store.keyList()).toEqual(["ns/a", "ns/b"]);
    expect(store.timeExtent()).toEqual([5, 20]);
    expect(store.lastSeq()).toBe(11);
  });

  it("bumps its version once per batch and notifies subscribers", () => {
    const store = new TraceStore();
    let calls = 0;
    store.subscribe(() => calls++);
    store.append([
      { seq: 1, ts: 1, key: "k", stage: "dequeue" },
      { seq: 2, ts: 2, key: "k", stage: "read" },
    ]);
    store.append([]);
    expect(store.version).toBe(1);
    expect(calls).toBe(1);
  });

  it("narrows a key's rows to a time range by binary search, or not at all when ts go back", () => {
    const store = new TraceStore();
    const ev = (seq: number, ts: number, key: string): TraceEvent => ({
      seq,
      ts,
      key,
      stage: "read",
    });
    store.append([ev(1, 10, "a"), ev(2, 20, "a"), ev(3, 5, "b"), ev(4, 20, "a")]);
    store.append([ev(5, 30, "a"), ev(6, 1, "b"), ev(7, 40, "a")]);
    const a = store.rowsOf("a");
    expect(store.rowRange("a", a, 20, 30)).toEqual([1, 4]);
    expect(store.rowRange("a", a, 0, 9)).toEqual([0, 0]);
    expect(store.rowRange("a", a, 41, 50)).toEqual([5, 5]);
    const b = store.rowsOf("b");
    expect(store.rowRange("b", b, 2, 3)).toEqual([0, 2]);
  });

  it("lists each key's rows in order however batches come and whenever views ask", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 30 }), { maxLength: 12 }),
        fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
        (batches, askAfter) => {
          const store = new TraceStore();
          const expected = new Map<string, number[]>();
          let seq = 0;
          batches.forEach((keys, b) => {
            store.append(
              keys.map((k) => {
                const key = `ns/k${k}`;
                const row = seq++;
                expected.set(key, [...(expected.get(key) ?? []), row]);
                return { seq: seq, ts: 1000 + row, key, stage: "read" } satisfies TraceEvent;
              }),
            );
            // Lists built between batches must keep up with the batches after them.
            if (askAfter[b]) for (const k of expected.keys()) store.rowsOf(k);
          });
          for (const [key, rows] of expected) expect(Array.from(store.rowsOf(key))).toEqual(rows);
          expect(store.rowsOf("ns/none")).toHaveLength(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
