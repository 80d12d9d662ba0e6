import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { Analyzer } from "../analysis/analyzer.ts";
import { narrate } from "./narrate.ts";
import { readFileSync } from "node:fs";
import { readTraceText } from "../reader/read-trace.ts";
import { machineryStates } from "./machinery.ts";

type Draft = TraceEvent extends infer E
  ? E extends TraceEvent
    ? Omit<E, "seq" | "ts">
    : never
  : never;

const KEY = "default/example-foo";
const STATUS = "foos/default/example-foo/status";
const DEPLOY = "deployments/default/example-foo";

function trace(drafts: Draft[]): TraceEvent[] {
  return drafts.map((d, i) => ({ ...d, seq: i + 1, ts: 1_000_000 + i * 1000 }) as TraceEvent);
}

/** One creation as our controller records it: create, status write, both echoes, a no-op pass. */
const CREATE = trace([
  { stage: "note", key: KEY, src: "scenario", text: "scenario: kubectl apply Foo example-foo" },
  {
    stage: "watch",
    key: KEY,
    kind: "Foo",
    event: "add",
    ns: "default",
    name: "example-foo",
    rv: "10",
  },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 2, len: 1, merged: false },
  { stage: "dequeue", key: KEY, worker: 1, len: 0 },
  { stage: "read", key: KEY, rv: "10", generation: 1, worker: 1 },
  {
    stage: "write",
    key: KEY,
    verb: "create",
    target: DEPLOY,
    code: 201,
    rv: "11",
    changed: true,
    worker: 1,
  },
  {
    stage: "watch",
    key: KEY,
    kind: "Deployment",
    event: "add",
    ns: "default",
    name: "example-foo",
    rv: "11",
  },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 7, len: 0, merged: "processing" },
  {
    stage: "write",
    key: KEY,
    verb: "updateStatus",
    target: STATUS,
    code: 200,
    rv: "12",
    changed: true,
    fields: ["status.availableReplicas"],
    worker: 1,
  },
  { stage: "done", key: KEY, outcome: "synced", worker: 1 },
  {
    stage: "watch",
    key: KEY,
    kind: "Foo",
    event: "update",
    ns: "default",
    name: "example-foo",
    rv: "12",
    oldRv: "10",
  },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 11, len: 1, merged: false },
  { stage: "dequeue", key: KEY, worker: 2, len: 0 },
  { stage: "read", key: KEY, rv: "12", generation: 1, worker: 2 },
  {
    stage: "write",
    key: KEY,
    verb: "updateStatus",
    target: STATUS,
    code: 200,
    rv: "12",
    changed: false,
    fields: [],
    worker: 2,
  },
  { stage: "done", key: KEY, outcome: "synced", worker: 2 },
]);

describe("narrate", () => {
  const n = narrate(CREATE);
  const at = (seq: number) => n.find((x) => x.seq === seq)!;

  it("gives every event one narration, in order, naming the part that acted", () => {
    expect(n.map((x) => x.seq)).toEqual(CREATE.map((e) => e.seq));
    expect(n.every((x) => x.text.length > 20 && x.parts.length > 0)).toBe(true);
    expect(at(2).parts).toEqual(["informer", "handler"]);
    expect(at(3).parts).toEqual(["workqueue"]);
    expect(at(4).parts[0]).toBe("worker");
    expect(at(5).parts).toEqual(["lister"]);
    expect(at(6).parts).toEqual(["api"]);
    expect(at(1)).toMatchObject({
      parts: ["scenario"],
      text: "Scenario step: kubectl apply Foo example-foo.",
    });
  });

  it("says a user's create is an external trigger", () => {
    expect(at(2).text).toContain("A user created the Foo: an external trigger");
    expect(at(2).self).toBeUndefined();
    expect(at(4).text).toContain("starts pass 1");
    expect(at(4).text).toContain("external change (the watch event at seq 2)");
  });

  it("does not call a watch event added when its line did not say so (a bare STAGE/watch)", () => {
    const bare = CREATE.map((e) =>
      e.stage === "watch" && e.kind === "Foo" ? { ...e, extra: { assumed: "kind,event" } } : e,
    );
    const told = narrate(bare).find((x) => x.seq === 2)!.text;
    expect(told).toContain(
      "Foo default/example-foo (its STAGE line does not say added or updated)",
    );
    expect(told).not.toContain("example-foo added");
  });

  it("recognises the echo of our own writes by resourceVersion and calls the pass self-triggered", () => {
    expect(at(7).text).toContain("echo of our own create at seq 6");
    expect(at(11).text).toContain(
      "It is the echo of our own updateStatus at seq 9 (same resourceVersion), so the pass it triggers is self-triggered.",
    );
    expect(at(11).self).toBe(true);
    expect(at(12).text).toContain("the echo of our own write at seq 9");
    expect(at(13).text).toContain("a self-triggered pass");
    expect(at(13).self).toBe(true);
  });

  it("never calls a pass self-triggered that another trigger merged into: the echo is a self trigger, the pass external", () => {
    // The Deployment controller reports progress (an update we did not write) while pass 2 waits.
    const drafts = CREATE.map(({ seq: _s, ts: _t, ...d }) => d as Draft);
    const merged = trace([
      ...drafts.slice(0, 12),
      {
        stage: "watch",
        key: KEY,
        kind: "Deployment",
        event: "update",
        ns: "default",
        name: "example-foo",
        rv: "13",
        oldRv: "11",
      },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 13, len: 1, merged: "dirty" },
      ...drafts.slice(12),
    ]);
    const a = new Analyzer();
    a.pushAll(merged);
    expect(a.passes(KEY)[1]!.cause).toBe("external");
    const out = narrate(merged, a);
    const told = (seq: number) => out.find((x) => x.seq === seq)!;
    for (const seq of [7, 11]) {
      expect(told(seq).text).toContain(
        "a self trigger — but pass 2, which it feeds, also takes an external change, so that pass counts as external",
      );
      expect(told(seq)).toMatchObject({ pass: 2, echo: true });
      expect(told(seq).self).toBeUndefined();
    }
    expect(told(12).text).toContain("pass 2 counts as external, another trigger merged into it");
    expect(told(12).self).toBeUndefined();
    const dequeue = out.find((x) => merged[x.seq - 1]!.stage === "dequeue" && x.pass === 2)!;
    expect(dequeue.text).toContain("It was triggered by an external change");
    expect(dequeue.text).toContain(
      "our own write coming back: with another cause among them, it is not a self-triggered pass.",
    );
    expect(dequeue.self).toBeUndefined();
    // Where every trigger is an echo, the pass is self-triggered, and its echo says so.
    expect(at(11)).toMatchObject({ self: true, echo: true });
  });

  it("names a write as a person would say it aloud", () => {
    const drafts = CREATE.map(({ seq: _s, ts: _t, ...d }) => d as Draft);
    const scaled = trace([
      ...drafts.slice(0, 5),
      {
        stage: "write",
        key: KEY,
        verb: "update",
        target: DEPLOY,
        code: 200,
        rv: "14",
        changed: true,
      },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 409,
        reason: "Conflict",
      },
      { stage: "done", key: KEY, outcome: "requeued", worker: 1 },
    ]);
    const out = narrate(scaled);
    expect(out[5]!.text).toMatch(
      /^The pass updates Deployment default\/example-foo through the API/,
    );
    expect(out[6]!.text).toMatch(
      /^The API refused the status write \(UpdateStatus\) of Foo default\/example-foo with 409 Conflict/,
    );
  });

  it("links an enqueue line that names no watch event (a klog log's) to the echo it queues", () => {
    const klogStyle = CREATE.map((e) => {
      if (e.stage !== "enqueue") return e;
      const { cause: _cause, causeSeq: _causeSeq, merged: _merged, ...rest } = e;
      return rest as TraceEvent;
    });
    const out = narrate(klogStyle);
    expect(out[11]!.text).toContain("the echo of our own write at seq 9");
    expect(out[11]!.self).toBe(true);
  });

  it("calls a resync's add a resync, not the echo of the write whose rv it carries", () => {
    const resync = trace([
      ...CREATE.map(({ seq: _s, ts: _t, ...d }) => d as Draft),
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        ns: "default",
        name: "example-foo",
        rv: "12",
        oldRv: "12",
      },
      { stage: "enqueue", key: KEY, cause: "resync", causeSeq: 17, len: 1, merged: false },
    ]);
    const r = narrate(resync);
    const add = r.find((x) => x.seq === 18)!;
    expect(add.text).toContain("The resync's add puts");
    expect(add.text).not.toContain("echo");
    expect(add.self).toBeUndefined();
    expect(r.find((x) => x.seq === 17)!.self).toBeUndefined();
  });

  it("explains a parked add, a no-op write and the no-op second pass", () => {
    expect(at(8).text).toContain("parks it");
    expect(at(15).text).toContain("a no-op write");
    expect(at(16).text).toContain("This self-triggered pass changed nothing");
    expect(at(10).text).toContain("2 changing writes");
    expect(at(10).text).toContain(
      "was added again while this pass ran, so Done puts it straight back",
    );
    expect(at(16).text).not.toContain("straight back");
  });

  it("tells a second add to a parked key as parked, not as waiting in the queue", () => {
    const adds = trace([
      { stage: "enqueue", key: KEY, cause: "watch", len: 1, merged: false },
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      { stage: "enqueue", key: KEY, cause: "watch", len: 0, merged: "processing" },
      { stage: "enqueue", key: KEY, cause: "watch", len: 0, merged: "dirty" },
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      { stage: "enqueue", key: KEY, cause: "watch", len: 1, merged: false },
      { stage: "enqueue", key: KEY, cause: "watch", len: 1, merged: "dirty" },
    ]);
    const r = narrate(adds);
    const text = (seq: number) => r.find((x) => x.seq === seq)!.text;
    expect(text(4)).toContain("already parked (dirty) while a worker processes it");
    expect(text(4)).not.toContain("now wait");
    // Once Done put it back, a second add finds it waiting in the queue.
    expect(text(7)).toContain("already waiting there");
  });

  it("tells a write that returned the rv the Foo had as a no-op, in a log that does not say", () => {
    const go = trace([
      { stage: "watch", key: KEY, kind: "Foo", event: "add", name: "example-foo", rv: "10" },
      { stage: "enqueue", key: KEY },
      { stage: "dequeue", key: KEY },
      { stage: "read", key: KEY, rv: "10" },
      { stage: "write", key: KEY, verb: "updateStatus", target: STATUS, code: 200, rv: "11" },
      { stage: "dequeue", key: KEY },
      { stage: "read", key: KEY, rv: "11" },
      { stage: "write", key: KEY, verb: "updateStatus", target: STATUS, code: 200, rv: "11" },
    ]);
    const r = narrate(go);
    expect(r.find((x) => x.seq === 5)!.text).toContain("new rv 11");
    expect(r.find((x) => x.seq === 8)!.text).toContain("a no-op write");
    expect(r.find((x) => x.seq === 8)!.text).not.toContain("echo");
  });

  it("says an echo the Analyzer inferred by timing (no resourceVersions) is inferred", () => {
    const bare = trace([
      { stage: "watch", key: KEY, kind: "Foo", event: "add", name: "example-foo" },
      { stage: "enqueue", key: KEY },
      { stage: "dequeue", key: KEY },
      { stage: "write", key: KEY, verb: "updateStatus", target: STATUS },
      { stage: "watch", key: KEY, kind: "Foo", event: "update", name: "example-foo" },
      { stage: "enqueue", key: KEY },
      { stage: "dequeue", key: KEY },
    ]);
    const a = new Analyzer();
    a.pushAll(bare);
    const second = a.passes(KEY)[1]!;
    expect(second).toMatchObject({ cause: "self", inferred: true });
    const out = narrate(bare, a);
    // The Analyzer took the update for the echo of the write at seq 4 (the lanes mark the pass
    // self-triggered); the narration used to call it an external change on its own rules.
    expect(out[4]!.text).not.toContain("external trigger");
    expect(out[4]!.text).toContain(
      "The Analyzer takes it for the echo of our own updateStatus at seq 4, by timing (the trace has no resourceVersions to match)",
    );
    expect(out[4]!.self).toBe(true);
    expect(out[5]!.text).toContain("(taken by timing for the echo of our own write at seq 4)");
    expect(out[6]!.text).toContain("a self-triggered pass (inferred by timing");
    // Never an exact claim, and no rv where the trace has none.
    expect(out.some((x) => x.text.includes("It is the echo"))).toBe(false);
    expect(out[4]!.text).not.toContain("rv ");
  });

  it("explains a 409 by the read it was based on, and the growing backoff", () => {
    const conflict = trace([
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      { stage: "read", key: KEY, rv: "10", worker: 1 },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 200,
        rv: "12",
        changed: true,
        worker: 1,
      },
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      { stage: "dequeue", key: KEY, worker: 2, len: 0 },
      { stage: "read", key: KEY, rv: "10", worker: 2 },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 409,
        reason: "Conflict",
        changed: false,
        worker: 2,
      },
      {
        stage: "done",
        key: KEY,
        outcome: "requeued",
        delayMs: 5,
        error: "Operation cannot be fulfilled: modified",
        worker: 2,
      },
      { stage: "enqueue", key: KEY, cause: "retry", delayMs: 5, len: 1, merged: false },
    ]);
    const out = narrate(conflict);
    expect(out[5]!.text).toContain(
      "from the lister — the informer's local cache, no API call: rv 10.",
    );
    expect(out[6]!.text).toContain(
      "409 Conflict: the object changed after this pass read it (rv 10 at seq 6) — the lister's copy was behind, so the pass fails",
    );
    expect(out[7]!.text).toContain("comes back after 5 ms");
    expect(out[8]!.text).toContain("The rate limiter's 5 ms delay ran out");
  });

  it("blames a 409 on a competing writer when the Foo changed after the pass read it", () => {
    // The conflict scenario: status writes take 150 ms; another writer edits the Foo meanwhile.
    const conflict = trace([
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      { stage: "read", key: KEY, rv: "10", worker: 1 },
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        name: "example-foo",
        rv: "11",
        oldRv: "10",
      },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 3, len: 0, merged: "processing" },
      // A second edit: the first one after the read is the one that made the write stale.
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        name: "example-foo",
        rv: "13",
        oldRv: "11",
      },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 409,
        reason: "Conflict",
        worker: 1,
      },
      { stage: "done", key: KEY, outcome: "requeued", delayMs: 5, error: "conflict", worker: 1 },
      // The next pass takes the edit up: the Analyzer classifies its watch event as external.
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
    ]);
    const out = narrate(conflict);
    expect(out[5]!.text).toContain(
      "the object changed after this pass read it (rv 10 at seq 2): another writer's change came in at seq 3",
    );
    expect(out[5]!.text).not.toContain("lister's copy was behind");
  });

  it("tells an update handed over by a re-list after 410 Gone as such, not as a watch event", () => {
    const gone = trace([
      {
        stage: "note",
        key: "",
        level: "I",
        src: "foo-controller.ts:187",
        // As packages/controller's foo-controller.ts writes it.
        text: "the Foo informer's watch ended with 410 Gone (its resourceVersion was too old): it lists every Foo again, then watches anew",
      },
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        name: "example-foo",
        rv: "20",
        oldRv: "12",
      },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 2, len: 1, merged: false },
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        name: "example-foo",
        rv: "21",
        oldRv: "20",
      },
    ]);
    const out = narrate(gone);
    expect(out[1]!.text).toContain(
      "The Foo informer's re-list (its watch ended with 410 Gone, seq 1) found Foo example-foo updated (rv 20) against its cache",
    );
    // The pass it starts says so too, not "the watch event at seq 2".
    expect(out[3]!.text).toContain(
      "triggered by an external change (the re-list's event at seq 2, no watch event)",
    );
    // Once the pass runs, the informer watches again: the next update is a watch event.
    expect(out[4]!.text).toContain("reflector received a watch event");
  });

  it("calls a self-triggered pass that changes the same field again a hot loop", () => {
    const F = ["status.lastSyncedAt"];
    const loop = trace([
      { stage: "watch", key: KEY, kind: "Foo", event: "add", name: "example-foo", rv: "10" },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 1, len: 1, merged: false },
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      { stage: "read", key: KEY, rv: "10", worker: 1 },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 200,
        rv: "11",
        changed: true,
        fields: F,
        worker: 1,
      },
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      {
        stage: "watch",
        key: KEY,
        kind: "Foo",
        event: "update",
        name: "example-foo",
        rv: "11",
        oldRv: "10",
      },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 7, len: 1, merged: false },
      { stage: "dequeue", key: KEY, worker: 1, len: 0 },
      { stage: "read", key: KEY, rv: "11", worker: 1 },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: STATUS,
        code: 200,
        rv: "12",
        changed: true,
        fields: F,
        worker: 1,
      },
      { stage: "done", key: KEY, outcome: "synced", worker: 1 },
    ]);
    const out = narrate(loop);
    // Said at the dequeue, before the pass writes: in the future tense, naming the write.
    // The first pass was the user's create: the run of self-triggered changing passes starts here.
    expect(out[8]!.text).toContain(
      "This pass will change status.lastSyncedAt (its write at seq 11): the first self-triggered pass in a row to change something; the Analyzer calls 5 a hot loop.",
    );
    expect(out[8]!.text).not.toContain("— a hot loop");
    expect(out[2]!.text).not.toContain("hot loop");
    // Three more passes like the second: the fifth self-triggered changing pass is one.
    const more: Draft[] = [];
    for (let k = 0; k < 4; k++) {
      const rv = String(12 + k);
      const watchSeq = loop.length + more.length + 1;
      more.push(
        {
          stage: "watch",
          key: KEY,
          kind: "Foo",
          event: "update",
          name: "example-foo",
          rv,
          oldRv: String(11 + k),
        },
        { stage: "enqueue", key: KEY, cause: "watch", causeSeq: watchSeq, len: 1, merged: false },
        { stage: "dequeue", key: KEY, worker: 1, len: 0 },
        { stage: "read", key: KEY, rv, worker: 1 },
        {
          stage: "write",
          key: KEY,
          verb: "updateStatus",
          target: STATUS,
          code: 200,
          rv: String(13 + k),
          changed: true,
          fields: F,
          worker: 1,
        },
        { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      );
    }
    const longer = trace([...(loop as unknown as Draft[]), ...more]);
    const texts = (threshold?: number) => {
      const a = new Analyzer(threshold !== undefined ? { hotLoopThreshold: threshold } : {});
      a.pushAll(longer);
      return narrate(longer, a)
        .filter((x) => x.text.includes("starts pass"))
        .map((x) => x.text);
    };
    const byDefault = texts();
    expect(byDefault[4]).toContain(
      "the key is looping on its own writes, 4 self-triggered passes in a row that each changed something; the Analyzer calls 5 a hot loop.",
    );
    expect(byDefault[5]).toContain(
      "— a hot loop: 5 self-triggered passes in a row that each changed something; the Analyzer's threshold is 5.",
    );
    // An Analyzer told a lower threshold finds the loop sooner, and the narration says so where
    // it does (its own fixed count of five used to say it two passes later).
    const sooner = texts(3);
    expect(sooner[2]).not.toContain("— a hot loop");
    expect(sooner[3]).toContain(
      "— a hot loop: 3 self-triggered passes in a row that each changed something; the Analyzer's threshold is 3.",
    );
  });

  it("tells each pass of the hot-loop sample's run as the Analyzer counts it", () => {
    const text = readFileSync(
      new URL("../../../../public/traces/hot-loop.jsonl", import.meta.url),
      "utf8",
    );
    const events = readTraceText(text).events;
    const a = new Analyzer();
    a.pushAll(events);
    const out = narrate(events, a);
    let hot = 0;
    let bridged = false;
    for (const p of a.passes(KEY)) {
      const said = out.find((n) => n.seq === p.dequeueSeq)!.text;
      if (p.loopRun >= 2)
        expect(said).toMatch(
          new RegExp(
            `${p.loopRun} self-triggered passes (in a row that each changed something|that each changed something, with \\d+ refused with 409 between them \\(not counted\\))`,
          ),
        );
      bridged ||= p.loopRun >= 2 && said.includes("refused with 409 between them");
      if (p.loopRun >= a.hotLoopThreshold) hot++;
      expect(said.includes("— a hot loop"), `pass ${p.number}`).toBe(p.loopRun >= 5);
    }
    // The sample's loop is long enough to be found, and the finding and the narration agree.
    expect(hot).toBeGreaterThanOrEqual(1);
    expect(a.summary(KEY)!.hotLoop).toBe(true);
    // Its two workers make passes that stumble on a 409 inside the run: said, as the finding does.
    expect(bridged).toBe(true);
  });

  it("tells the hot-loop sample's end as it is: the 409 dropped as the controller stops, a last event queued nothing", () => {
    const text = readFileSync(
      new URL("../../../../public/traces/hot-loop.jsonl", import.meta.url),
      "utf8",
    );
    const events = readTraceText(text).events;
    const out = narrate(events);
    const last409 = events.filter((e) => e.stage === "write" && e.code === 409).at(-1)!;
    const said = (seq: number) => out.find((n) => n.seq === seq)!.text;
    expect(said(last409.seq)).toContain(
      "the controller is stopping, so the key is dropped, not retried",
    );
    const drop = events.find((e) => e.stage === "done" && e.outcome === "dropped")!;
    expect(said(drop.seq)).toContain("dropped");
    // The sample's last watch event (the echo of its last write) came as the queue was shut.
    const lastWatch = events.filter((e) => e.stage === "watch").at(-1)!;
    const queuedAfter = events.some((e) => e.stage === "enqueue" && e.seq > lastWatch.seq);
    expect(queuedAfter).toBe(false);
    expect(said(lastWatch.seq)).toContain("no enqueue of it follows in this trace");
  });

  it("blames a 409 in the create-foo sample on our own write the lister had not caught up with", () => {
    const text = readFileSync(
      new URL("../../../../public/traces/create-foo.jsonl", import.meta.url),
      "utf8",
    );
    const events = readTraceText(text).events;
    const out = narrate(events);
    const refused = out.filter((n) => n.text.includes("409 Conflict"));
    expect(refused.length).toBeGreaterThan(0);
    for (const n of refused) {
      // Its read came before the echo of our status write; a Deployment's update in between
      // (the Deployment controller's) is no change to the Foo.
      expect(n.text).toMatch(
        /our own updateStatus at seq \d+ came back only at seq \d+, after this read — the lister was behind our own write/,
      );
      expect(n.text).not.toContain("another writer");
    }
  });

  it("says an orphaned Deployment event queues nothing", () => {
    const out = narrate(
      trace([
        {
          stage: "watch",
          key: "",
          kind: "Deployment",
          event: "delete",
          ns: "default",
          name: "x",
          rv: "5",
        },
      ]),
    );
    expect(out[0]!.text).toContain("found no Foo that owns it");
  });

  it("says an initial-list Deployment add came before its Foo was listed", () => {
    const out = narrate(
      trace([
        {
          stage: "watch",
          key: "",
          kind: "Deployment",
          event: "add",
          ns: "default",
          name: "x",
          rv: "5",
          initial: true,
        },
      ]),
    );
    expect(out[0]!.text).toContain("the Foo informer may not have listed its owner yet");
  });

  it("counts a Foo created again from pass 1 (as the excerpt and the timeline's labels do)", () => {
    const again = CREATE.map((e) => {
      const x = { ...e, seq: e.seq + CREATE.length, ts: e.ts + 60_000_000 } as Record<
        string,
        unknown
      >;
      for (const f of ["rv", "oldRv"])
        if (typeof x[f] === "string") x[f] = String(Number(x[f]) + 100);
      return x as unknown as TraceEvent;
    });
    const both = narrate([...CREATE, ...again]);
    const dequeue = both.find((x) => x.seq === 4 + CREATE.length)!;
    expect(dequeue.text).toContain("starts pass 1");
    expect(dequeue.pass).toBe(1);
    expect(both.find((x) => x.seq === 4)!.pass).toBe(1);
  });

  it("uses a given analysis instead of its own", () => {
    const a = new Analyzer();
    a.pushAll(CREATE);
    expect(narrate(CREATE, a)).toEqual(n);
  });
});

describe("machineryStates", () => {
  it("follows queue contents, parked keys and the key each worker holds", () => {
    const s = machineryStates(CREATE);
    const at = (seq: number) => s[seq - 1]!;
    expect(at(3).queue).toEqual([KEY]);
    expect(at(4)).toMatchObject({ queue: [], workers: { 1: KEY } });
    expect(at(8).parked).toEqual([KEY]);
    expect(at(9).lastWrite).toMatchObject({ verb: "updateStatus", code: 200 });
    // The key's next pass starts with no write of its own to show.
    expect(at(13).lastWrite).toBeUndefined();
    // Done puts the parked key back into the queue.
    expect(at(10)).toMatchObject({ queue: [KEY], parked: [], workers: {} });
    expect(at(13)).toMatchObject({ queue: [], workers: { 2: KEY } });
    expect(at(16).workers).toEqual({});
    expect(at(11).lastWatch).toMatchObject({ kind: "Foo", event: "update", rv: "12" });
  });

  it("keeps each key once in the queue when adds merge", () => {
    const s = machineryStates(
      trace([
        { stage: "enqueue", key: "a", merged: false },
        { stage: "enqueue", key: "b", merged: false },
        { stage: "enqueue", key: "a", merged: "dirty" },
        { stage: "dequeue", key: "a", worker: 1 },
      ]),
    );
    expect(s[2]!.queue).toEqual(["a", "b"]);
    expect(s[3]!.queue).toEqual(["b"]);
  });

  it("keeps a key a worker holds out of the queue when a second add merges into the parked one", () => {
    // slow-api: two adds while worker 1 writes (250 ms a call); the second merges as "dirty".
    const s = machineryStates(
      trace([
        { stage: "enqueue", key: "a", merged: false, len: 1 },
        { stage: "dequeue", key: "a", worker: 1, len: 0 },
        { stage: "enqueue", key: "a", merged: "processing", len: 0 },
        { stage: "enqueue", key: "a", merged: "dirty", len: 0 },
        { stage: "done", key: "a", outcome: "synced", worker: 1 },
      ]),
    );
    expect(s[3]).toMatchObject({ queue: [], parked: ["a"], workers: { 1: "a" } });
    expect(s[4]).toMatchObject({ queue: ["a"], parked: [], workers: {} });
  });
});
