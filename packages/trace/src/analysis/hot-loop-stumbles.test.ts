/**
 * A hot loop with two workers, as our controller's probe records it: each writing pass is
 * followed by one that started before the echo of that write reached the lister, so its write
 * answers 409 and the key is requeued. Those stumbles must not hide the loop, and the late
 * retry enqueue must not relabel the self-triggered pass that began before it.
 */
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.ts";
import type { TraceEvent } from "../event.ts";

type Draft = TraceEvent extends infer E
  ? E extends TraceEvent
    ? Omit<E, "seq" | "ts">
    : never
  : never;

const KEY = "default/example-foo";
const TARGET = "foos/default/example-foo/status";

function build(loops: number, stumbleOutcome: "requeued" | "dropped" = "requeued"): TraceEvent[] {
  const out: TraceEvent[] = [];
  let ts = 1_000_000;
  let rv = 100;
  const add = (e: Draft): number => {
    ts += 1000;
    out.push({ ...e, ts, seq: out.length + 1 } as TraceEvent);
    return out.length;
  };
  const w = add({
    stage: "watch",
    key: KEY,
    kind: "Foo",
    event: "add",
    name: "example-foo",
    rv: String(rv),
  });
  add({ stage: "enqueue", key: KEY, cause: "watch", causeSeq: w, len: 1, merged: false });
  for (let i = 0; i < loops; i++) {
    // A self-triggered pass that changes status.lastSyncedAt …
    add({ stage: "dequeue", key: KEY, worker: 1, len: 0 });
    add({ stage: "read", key: KEY, rv: String(rv), worker: 1 });
    const written = String(++rv);
    add({
      stage: "write",
      key: KEY,
      verb: "updateStatus",
      target: TARGET,
      code: 200,
      rv: written,
      changed: true,
      fields: ["status.lastSyncedAt"],
      worker: 1,
    });
    if (i > 0)
      add({ stage: "enqueue", key: KEY, cause: "retry", delayMs: 5, merged: "processing", len: 0 });
    add({ stage: "done", key: KEY, outcome: "synced", worker: 1 });
    // … the parked retry runs at once on worker 2 with the stale lister: 409 …
    add({ stage: "dequeue", key: KEY, worker: 2, len: 0 });
    add({ stage: "read", key: KEY, rv: String(rv - 1), worker: 2 });
    const echo = add({
      stage: "watch",
      key: KEY,
      kind: "Foo",
      event: "update",
      name: "example-foo",
      rv: written,
      oldRv: String(rv - 1),
    });
    add({
      stage: "enqueue",
      key: KEY,
      cause: "watch",
      causeSeq: echo,
      merged: "processing",
      len: 0,
    });
    add({
      stage: "write",
      key: KEY,
      verb: "updateStatus",
      target: TARGET,
      code: 409,
      reason: "Conflict",
      changed: false,
      worker: 2,
    });
    add({
      stage: "done",
      key: KEY,
      outcome: stumbleOutcome,
      delayMs: 5,
      error: "conflict",
      worker: 2,
    });
  }
  return out;
}

describe("hot loop interleaved with conflict stumbles", () => {
  it("is found, names the field, and its passes stay self-triggered", () => {
    const a = new Analyzer();
    a.pushAll(build(6));
    const s = a.summary(KEY)!;
    expect(s.hotLoop).toBe(true);
    const f = a.findings().find((x) => x.kind === "hot-loop")!;
    expect(f.fields).toEqual(["status.lastSyncedAt"]);
    // Not "consecutive": the stumbles between them are said.
    expect(f.detail).toMatch(
      /^5 passes triggered by its own writes, changing status\.lastSyncedAt every time, and \d+ between them refused with 409 \(changing nothing\)$/,
    );
    const writing = a.passes(KEY).filter((p) => p.changingWrites > 0);
    expect(writing.slice(1).every((p) => p.cause === "self")).toBe(true);
  });

  it("needs the threshold's worth of changing passes, not of passes", () => {
    const a = new Analyzer();
    a.pushAll(build(4));
    expect(a.summary(KEY)!.hotLoop).toBe(false);
  });
});

describe("Pass.loopRun", () => {
  it("counts the run at each pass, bridging the stumbles, which count nothing", () => {
    const a = new Analyzer();
    a.pushAll(build(6));
    const runs = a.passes(KEY).map((p) => p.loopRun);
    // The first pass was the user's create (external); each writing pass after it is one more.
    expect(runs).toEqual([0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0]);
  });

  it("bridges a stumble dropped as the controller stops (the hot-loop scenario's end)", () => {
    const a = new Analyzer();
    a.pushAll(build(6, "dropped"));
    expect(a.passes(KEY).map((p) => p.loopRun)).toEqual([0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0]);
  });

  it("is handed on again when an earlier pass joins the run late (its write settled later)", () => {
    const S = "foos/default/example-foo/status";
    const F = ["status.lastSyncedAt"];
    const statusWrite = (rv: string) =>
      ({
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: S,
        code: 200,
        rv,
        changed: true,
        fields: F,
      }) as const;
    const events = [
      { stage: "watch", key: KEY, kind: "Foo", event: "add", name: "example-foo", rv: "1" },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 1 },
      { stage: "dequeue", key: KEY, worker: 1 },
      statusWrite("2"),
      statusWrite("3"),
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      { stage: "watch", key: KEY, kind: "Foo", event: "update", name: "example-foo", rv: "2" },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 7 },
      { stage: "dequeue", key: KEY, worker: 1 },
      { stage: "watch", key: KEY, kind: "Foo", event: "update", name: "example-foo", rv: "3" },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 10, merged: "processing" },
      // Whether this one changed its Deployment is known only when its echo comes (seq 17).
      {
        stage: "write",
        key: KEY,
        verb: "update",
        target: "deployments/default/example-foo",
        code: 200,
        rv: "4",
      },
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      { stage: "dequeue", key: KEY, worker: 1 },
      statusWrite("5"),
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      {
        stage: "watch",
        key: KEY,
        kind: "Deployment",
        event: "update",
        name: "example-foo",
        rv: "4",
      },
    ].map((d, i) => ({ ...d, seq: i + 1, ts: 1_000_000 + i * 1000 }) as TraceEvent);
    const a = new Analyzer({ trackChanges: true });
    const held = new Map<number, number>();
    for (const e of events) {
      a.push(e);
      for (const p of a.takeChangedPasses()) held.set(p.index, p.loopRun);
    }
    expect(a.passes(KEY).map((p) => p.loopRun)).toEqual([0, 1, 2]);
    // A store that holds only what it was handed has the run as the Analyzer has it.
    expect([...held.entries()].sort((x, y) => x[0] - y[0])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });
});
