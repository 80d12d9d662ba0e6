import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyze, fixture } from "../testing/fixtures.ts";
import { Analyzer } from "./analyzer.ts";
import type { TraceEvent, WatchEvent } from "../event.ts";
import { readTraceText } from "../reader/read-trace.ts";
import { buildExcerpt, renderExcerptText } from "../excerpt/excerpt.ts";
import { narrate } from "../narration/narrate.ts";

const KEY = "default/example-foo";

/** One Foo creation shaped like the upstream sequence, in every style that carries rvs. */
describe.each(["create-canonical.log", "create-infos.log", "create-spellings.log"])(
  "one Foo creation (%s)",
  (file) => {
    const { analyzer, reader } = analyze(fixture(`stage/${file}`));

    it("reads every line without a diagnostic beyond the year note", () => {
      expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
      expect(analyzer.keys()).toEqual([KEY]);
    });

    it("counts each stage", () => {
      expect(analyzer.summary(KEY)?.byStage).toEqual({
        watch: 9,
        enqueue: 9,
        dequeue: 7,
        read: 7,
        write: 8,
      });
    });

    it("classifies passes exactly by resourceVersion", () => {
      const s = analyzer.summary(KEY)!;
      expect(s.passes).toBe(7);
      expect(s.passCauses).toEqual({ external: 4, self: 2, resync: 1, retry: 0, unknown: 0 });
      expect(s.selfTriggered).toBe(2);
      expect(analyzer.passes(KEY).map((p) => p.cause)).toEqual([
        "external",
        "self",
        "external",
        "external",
        "external",
        "self",
        "resync",
      ]);
      expect(analyzer.passes(KEY).every((p) => !p.inferred && !p.fromMarkers)).toBe(true);
    });

    it("merges the two echoes of pass 1 into one self-triggered pass", () => {
      const p = analyzer.passes(KEY)[1];
      expect(p.triggers.map((t) => t.cause)).toEqual(["self", "self"]);
      expect(p.triggers.every((t) => t.writeSeq !== undefined)).toBe(true);
    });

    it("tells changing writes from no-ops, and finds the create quiescent after 6 passes", () => {
      const s = analyzer.summary(KEY)!;
      expect(s.writes).toBe(8);
      expect(s.changingWrites).toBe(3);
      expect(s.noopWrites).toBe(5);
      expect(s.conflicts).toBe(0);
      expect(s.reconcilesForCreate).toBe(6);
      expect(s.quiescent).toBe(true);
      expect(s.hotLoop).toBe(false);
      expect(analyzer.findings()).toEqual([]);
    });
  },
);

describe("one Foo creation in positional free text (no resourceVersions)", () => {
  const { analyzer, reader } = analyze(fixture("stage/create-positional.log"));

  it("reads every STAGE line", () => {
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    expect(analyzer.summary(KEY)?.byStage).toEqual({
      watch: 8,
      enqueue: 8,
      dequeue: 6,
      read: 6,
      write: 7,
    });
  });

  it("falls back to the echo heuristic and marks it inferred", () => {
    const passes = analyzer.passes(KEY);
    expect(passes.map((p) => p.cause)).toEqual([
      "external",
      "self",
      "external",
      "external",
      "external",
      "self",
    ]);
    expect(passes.every((p) => p.inferred)).toBe(true);
  });

  it("settles writes by their echoes", () => {
    const s = analyzer.summary(KEY)!;
    expect(s.changingWrites).toBe(3);
    expect(s.noopWrites).toBe(4);
    expect(s.reconcilesForCreate).toBe(6);
    expect(s.quiescent).toBe(true);
  });
});

describe("the exercise as a learner writes it: a watch line in the Foo add handler only", () => {
  // The read line prints only the resourceVersion, the writes name `kind/…` and a bare name, and
  // the Deployment's events and the Foo's updates reach the queue with no watch line before them.
  const { analyzer, reader, events } = analyze(fixture("stage/create-learner.log"));

  it("reads every STAGE line, a read or write without a key as the open pass's", () => {
    expect(reader.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(analyzer.keys()).toEqual([KEY]);
    expect(analyzer.summary(KEY)?.byStage).toEqual({
      watch: 1,
      enqueue: 5,
      dequeue: 5,
      read: 5,
      write: 6,
    });
    const writes = events.filter((e) => e.stage === "write");
    expect(writes.map((w) => [w.verb, w.target])).toEqual([
      ["create", "deployments/default/example-foo"],
      ...Array.from({ length: 5 }, () => ["updateStatus", "foos/default/example-foo/status"]),
    ]);
    expect(events.filter((e) => e.stage === "read").map((r) => r.rv)).toEqual([
      "1001",
      "1003",
      "1003",
      "1003",
      "1006",
    ]);
  });

  it("takes an add without a watch line for the Deployment's echo, leaving the status write's to the Foo", () => {
    const passes = analyzer.passes(KEY);
    // Pass 4's add, 3.3 s after the last write, is the Deployment's readiness (the Deployment
    // controller's write, no echo of ours); with no watch line, its cause is not known.
    expect(passes.map((p) => p.cause)).toEqual(["external", "self", "self", "unknown", "self"]);
    // Pass 2 is the create's echo, pass 3 the status write's.
    const seqOf = (n: number) => events.find((e) => e.line === n)!.seq;
    expect(passes[1].triggers.map((t) => t.writeSeq)).toEqual([seqOf(10)]);
    expect(passes[2].triggers.map((t) => t.writeSeq)).toEqual([seqOf(11)]);
  });
});

describe("a watch line that does not say its event (the reader assumes add)", () => {
  const at = (s: number, msg: string) =>
    `I1202 09:14:${s.toFixed(6).padStart(9, "0")}   48211 controller.go:131] ${msg}`;
  /** One pass of default/example-foo from `s`: a status write, with a Deployment create first. */
  const pass = (s: number, rv: number, create = false) => [
    at(s, "STAGE/dequeue default/example-foo 0"),
    at(s + 0.001, `STAGE/read ${rv}`),
    ...(create ? [at(s + 0.002, "STAGE/write create deployments/example-foo")] : []),
    at(s + 0.003, "STAGE/write update foos/status example-foo"),
    at(s + 0.004, '"Successfully synced" objectName="default/example-foo"'),
  ];
  /** A bare STAGE/watch line of default/example-foo at second `s`, and the add it makes. */
  const watched = (s: number) => [
    at(s, "STAGE/watch default/example-foo"),
    at(s + 0.0001, "STAGE/enqueue default/example-foo"),
  ];
  const read = (lines: string[]) => analyze(lines.join("\n") + "\n");

  it("is an update where it is our status write's echo (printed in enqueueFoo, on update too)", () => {
    const { analyzer } = read([
      ...watched(6),
      ...pass(6.001, 1001, true),
      ...watched(6.01),
      ...pass(6.011, 1003),
    ]);
    expect(analyzer.lives(KEY)).toBe(1);
    expect(analyzer.passes(KEY).map((p) => p.cause)).toEqual(["external", "self"]);
  });

  it("printed in enqueueFoo, echoes the Deployment's create: then every later one is an update", () => {
    // The Deployment's add (its create's echo), its status update 3.7 s later, a 30 s resync:
    // all come through enqueueFoo, so all print the bare line. One Foo, one life.
    const { analyzer } = read([
      ...watched(5.4),
      at(5.401, "STAGE/dequeue default/example-foo 0"),
      at(5.402, "STAGE/read 2001"),
      at(5.412, "STAGE/write create deployments/example-foo"),
      ...watched(5.413),
      at(5.42, "STAGE/write update foos/status example-foo"),
      at(5.4201, '"Successfully synced" objectName="default/example-foo"'),
      ...pass(5.4203, 2003),
      ...watched(9.1),
      ...pass(9.101, 2003),
      ...watched(30.15),
      ...pass(30.151, 2012),
    ]);
    expect(analyzer.lives(KEY)).toBe(1);
    expect(analyzer.passes(KEY).map((p) => p.cause)).toEqual([
      "external",
      "self",
      "external",
      "external",
    ]);
    expect(analyzer.summary(KEY)?.passes).toBe(4);
  });

  it("is a new Foo seconds after the last write (the exercise's delete; sleep 3; apply)", () => {
    const { analyzer } = read([
      // The controller starts and lists the Foo; the learner deletes it and applies it again.
      ...watched(6),
      ...pass(6.001, 1001),
      ...watched(9.5),
      ...pass(9.501, 1010, true),
    ]);
    expect(analyzer.lives(KEY)).toBe(2);
    expect(analyzer.summary(KEY)?.passes).toBe(1);
  });

  it("is a new Foo once the Foo was seen gone, however soon", () => {
    const { analyzer } = read([
      ...watched(6),
      ...pass(6.001, 1001),
      at(6.006, "STAGE/dequeue default/example-foo 0"),
      at(6.007, "STAGE/read default/example-foo not found"),
      at(6.008, '"Successfully synced" objectName="default/example-foo"'),
      ...watched(6.01),
      ...pass(6.011, 1010, true),
    ]);
    expect(analyzer.lives(KEY)).toBe(2);
  });

  it("is a new Foo when the trace begins on its namesake's last pass (a scenario's window)", () => {
    // The dashboard's scenario bar analyses the events since its scenario began: a retry of the
    // Foo the last scenario left, which finds it gone, and then this scenario's create. The add
    // is the window's first; the retry's pass is the old Foo's all the same.
    const { analyzer } = read([
      at(6.006, "STAGE/dequeue default/example-foo 0"),
      at(6.007, "STAGE/read default/example-foo not found"),
      at(6.008, '"Successfully synced" objectName="default/example-foo"'),
      at(6.5, "STAGE/watch kind=Foo event=add key=default/example-foo rv=1010"),
      at(6.5001, "STAGE/enqueue default/example-foo"),
      ...pass(6.501, 1010, true),
    ]);
    expect(analyzer.lives(KEY)).toBe(2);
    expect(analyzer.summary(KEY)?.passes).toBe(1);
    expect(analyzer.summary(KEY)?.passCauses.retry).toBe(0);
  });
});

describe("an enqueue line printed after the dequeue it caused (the patch logs after Add)", () => {
  // sample-controller's patch prints STAGE/enqueue right after workqueue.Add; an idle worker can
  // Get the key and print STAGE/dequeue first. Twice in this log (lines 9 and 31).
  const { analyzer, events } = analyze(fixture("stage/create-enqueue-race.log"));

  it("takes it as the trigger of the pass it opened, not of the next", () => {
    const s = analyzer.summary(KEY)!;
    expect(s.passCauses).toEqual({ external: 3, self: 2, resync: 0, retry: 0, unknown: 0 });
    expect(s.reconcilesForCreate).toBe(5);
    const late = events.filter((e) => e.stage === "enqueue" && e.line === 9);
    expect(analyzer.passes(KEY)[0]!.triggers.map((t) => t.enqueueSeq)).toEqual(
      late.map((e) => e.seq),
    );
    expect(analyzer.passes(KEY)[0]!.cause).toBe("external");
  });

  it("keeps an add after the pass wrote for the next pass (it may be that write's echo)", () => {
    const self = analyzer.passes(KEY).filter((p) => p.cause === "self");
    expect(self).toHaveLength(2);
    expect(self.every((p) => p.triggers.every((t) => t.writeSeq !== undefined))).toBe(true);
  });
});

describe("a controller restart (the informer lists the Foo again, unchanged)", () => {
  const { analyzer, events } = analyze(fixture("stage/create-restart.log"));

  it("is no new life: the create's reconcile count stands, the re-list counts as a resync", () => {
    const s = analyzer.summary(KEY)!;
    expect(s.reconcilesForCreate).toBe(5);
    expect(s.passCauses).toMatchObject({ external: 3, self: 2, resync: 1, unknown: 0 });
    expect(analyzer.passes(KEY).map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(buildExcerpt(events, { key: KEY })!.reconciles).toBe(5);
  });

  it("is narrated as a re-list, not a user's create", () => {
    const relist = events.find((e) => e.stage === "watch" && e.event === "add" && e.line === 44)!;
    const text = narrate(events).find((n) => n.seq === relist.seq)!.text;
    expect(text).toContain("listed Foo default/example-foo again (rv 1011), unchanged");
    expect(text).not.toContain("A user created");
  });
});

describe("a write whose reason is the API's own words", () => {
  it('is a 409 when they are a Conflict\'s (err="Operation cannot be fulfilled on …")', () => {
    const events = [
      { stage: "dequeue", key: KEY, worker: 1 },
      {
        stage: "write",
        key: KEY,
        verb: "updateStatus",
        target: "foos/default/example-foo/status",
        reason:
          'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "example-foo": the object has been modified; please apply your changes to the latest version and try again',
      },
      { stage: "done", key: KEY, outcome: "requeued", worker: 1 },
    ].map((d, i) => ({ ...d, seq: i + 1, ts: 1_000_000 + i * 1000 }) as TraceEvent);
    const a = new Analyzer();
    a.pushAll(events);
    expect(a.summary(KEY)).toMatchObject({ conflicts: 1, noopWrites: 0 });
    expect(a.findings().find((f) => f.kind === "conflict")?.seq).toBe(2);
  });
});

describe("a Foo gone when its key was processed", () => {
  it("is one finding per pass, though the lister's not-found and the controller's error both say it", () => {
    const gonePass = (from: number): TraceEvent[] =>
      [
        { stage: "dequeue", key: KEY, worker: 1 },
        { stage: "read", key: KEY, found: false, worker: 1 },
        {
          stage: "note",
          key: KEY,
          level: "E",
          text: "Foo referenced by item in work queue no longer exists",
        },
        { stage: "done", key: KEY, outcome: "synced", worker: 1 },
      ].map((d, i) => ({ ...d, seq: from + i, ts: 1_000_000 + (from + i) * 1000 }) as TraceEvent);
    const a = new Analyzer();
    a.pushAll(gonePass(1));
    expect(a.findings().find((f) => f.kind === "not-found")?.count).toBe(1);
    a.pushAll(gonePass(5));
    expect(a.findings().find((f) => f.kind === "not-found")?.count).toBe(2);
  });
});

describe("hot loop", () => {
  it("flags ≥5 consecutive self-triggered changing passes and names the field", () => {
    const { analyzer } = analyze(fixture("stage/hot-loop.log"));
    const s = analyzer.summary("default/hot-foo")!;
    expect(s.hotLoop).toBe(true);
    expect(s.quiescent).toBe(false);
    expect(s.reconcilesForCreate).toBeNull();
    const [f] = analyzer.findings();
    expect(f.kind).toBe("hot-loop");
    expect(f.key).toBe("default/hot-foo");
    expect(f.fields).toEqual(["status.lastSyncTime"]);
    expect(f.detail).toContain("7 consecutive");
  });

  it("names a few of many fields in its one-line finding, and keeps them all in its fields", () => {
    const many = Array.from({ length: 2000 }, (_, i) => `status.f${i}`);
    const log = fixture("stage/hot-loop.log").replace(
      /fields=status\.lastSyncTime/g,
      `fields=status.lastSyncTime,${many.join(",")}`,
    );
    const { analyzer, events } = analyze(log);
    const [f] = analyzer.findings();
    expect(f.kind).toBe("hot-loop");
    expect(f.fields).toEqual(["status.lastSyncTime", ...many]);
    expect(f.detail).toMatch(
      /changing status\.lastSyncTime, status\.f0, status\.f1, .*, status\.f6 and 1,993 more every time$/,
    );
    // So do the excerpt's notes and the narration: in brief, as the finding.
    const excerpt = renderExcerptText(buildExcerpt(events)!);
    expect(excerpt).toContain("‹changed status.lastSyncTime, status.f0, status.f1,");
    expect(excerpt).toContain("status.f6 and 1,993 more›");
    const said = narrate(events).map((n) => n.text);
    expect(said.some((t) => t.includes("status.f6 and 1,993 more"))).toBe(true);
    expect(said.every((t) => !t.includes("status.f7,"))).toBe(true);
  });

  it("honours a configurable threshold", () => {
    const { analyzer } = analyze(fixture("stage/hot-loop.log"), { hotLoopThreshold: 8 });
    expect(analyzer.summary("default/hot-foo")!.hotLoop).toBe(false);
  });

  it("is not raised by a create that settles", () => {
    const { analyzer } = analyze(fixture("stage/create-canonical.log"), { hotLoopThreshold: 1 });
    // Only pass 2 and 6 are self-triggered, and neither changes anything.
    expect(analyzer.summary(KEY)!.hotLoop).toBe(false);
  });
});

describe("logs with pass-end markers only", () => {
  const { analyzer } = analyze(fixture("stage/markers-only.log"));

  it("yields passes and outcomes per key, counted once", () => {
    expect(analyzer.keys()).toEqual([
      "default/alpha",
      "default/beta",
      "default/gamma",
      "default/delta",
    ]);
    const beta = analyzer.passes("default/beta");
    expect(beta.map((p) => p.outcome)).toEqual(["requeued", "synced"]);
    expect(beta.map((p) => p.cause)).toEqual(["unknown", "retry"]);
    expect(beta.every((p) => p.fromMarkers)).toBe(true);
    expect(analyzer.summary("default/alpha")!.passes).toBe(2);
    expect(analyzer.summary("default/delta")!.passes).toBe(2);
  });

  it("reports the requeue with its error text unquoted", () => {
    const retry = analyzer.findings().find((f) => f.kind === "retry" && f.key === "default/beta");
    expect(retry?.detail).toContain(
      'foos.samplecontroller.k8s.io "beta": the object has been modified',
    );
  });
});

/** Foo ns/a created, its first pass's status write refused with 409 — the pass not yet over. */
/** Builds events of key ns/a, numbered 1, 2, 3 … (ts: 1 ms apart), from their other fields. */
function eventsOfKeyA(): (e: Record<string, unknown>) => TraceEvent {
  let seq = 0;
  return (e) => ({ seq: ++seq, ts: seq * 1000, key: "ns/a", ...e }) as TraceEvent;
}

/** A Foo's add (rv 10), its enqueue, and pass 1's dequeue and read: the start of most stories. */
function createdAndRead(ev: (e: Record<string, unknown>) => TraceEvent): TraceEvent[] {
  return [
    ev({ stage: "watch", kind: "Foo", event: "add", name: "a", rv: "10" }),
    ev({ stage: "enqueue", cause: "watch", causeSeq: 1 }),
    ev({ stage: "dequeue" }),
    ev({ stage: "read", rv: "10" }),
  ];
}

/** A watch event of a Deployment no Foo the controller knows owns (key ""). */
function orphanWatch(extra: Partial<WatchEvent> = {}): WatchEvent {
  return {
    seq: 1,
    ts: 1,
    key: "",
    stage: "watch",
    kind: "Deployment",
    event: "add",
    ns: "default",
    name: "example-foo",
    ...extra,
  };
}

function conflictedCreate() {
  const ev = eventsOfKeyA();
  const a = new Analyzer();
  a.push(ev({ stage: "watch", kind: "Foo", event: "add", name: "a", rv: "1" }));
  a.push(ev({ stage: "enqueue", cause: "watch", causeSeq: 1 }));
  a.push(ev({ stage: "dequeue" }));
  a.push(ev({ stage: "read", rv: "1" }));
  a.push(conflictedStatus(ev));
  return { a, ev };
}

/** ns/a's status write answered 409 Conflict. */
function conflictedStatus(ev: (e: Record<string, unknown>) => TraceEvent): TraceEvent {
  return ev({
    stage: "write",
    verb: "updateStatus",
    target: "foos/ns/a/status",
    code: 409,
    reason: "Conflict",
  });
}

describe("live use", () => {
  it("answers mid-stream and counts a pass once when markers follow dequeues", () => {
    const { events } = analyze(fixture("stage/create-canonical.log"));
    const a = new Analyzer();
    const half = events.findIndex((e) => e.stage === "dequeue" && a.passes(KEY).length === 0);
    for (const e of events.slice(0, half + 1)) a.push(e);
    expect(a.summary(KEY)!.passes).toBe(1);
    expect(a.summary(KEY)!.quiescent).toBe(false);
    for (const e of events.slice(half + 1)) a.push(e);
    expect(a.summary(KEY)!.passes).toBe(7);
    expect(a.snapshot().keys[KEY].passes).toBe(7);
  });

  it("says when a finding's count spans lives of the Foo, which its summary does not", () => {
    const { a, ev } = conflictedCreate();
    a.push(ev({ stage: "done", outcome: "requeued", delayMs: 5 }));
    const conflict = () => a.findings().find((f) => f.kind === "conflict")!.detail;
    // Created again (another add, another rv), and the same 409 in this life.
    a.push(ev({ stage: "watch", kind: "Foo", event: "add", name: "a", rv: "20" }));
    a.push(ev({ stage: "enqueue", cause: "watch", causeSeq: 7 }));
    a.push(ev({ stage: "dequeue" }));
    a.push(ev({ stage: "read", rv: "20" }));
    a.push(conflictedStatus(ev));
    expect(a.lives("ns/a")).toBe(2);
    expect(a.summary("ns/a")!.conflicts).toBe(1);
    expect(conflict()).toMatch(/ ×2 over 2 lives of the Foo$/);
    a.push(ev({ stage: "done", outcome: "requeued", delayMs: 5 }));
    a.push(ev({ stage: "enqueue", cause: "retry", delayMs: 5 }));
    a.push(ev({ stage: "dequeue" }));
    a.push(ev({ stage: "read", rv: "20" }));
    a.push(conflictedStatus(ev));
    expect(conflict()).toMatch(/ ×3 over 2 lives of the Foo$/);
  });

  it("counts 409s as conflicts and the next pass as a retry", () => {
    const { a, ev } = conflictedCreate();
    a.push(ev({ stage: "done", outcome: "requeued", delayMs: 5 }));
    a.push(ev({ stage: "enqueue", cause: "retry", delayMs: 5 }));
    a.push(ev({ stage: "dequeue" }));
    a.push(ev({ stage: "read", rv: "1" }));
    a.push(
      ev({
        stage: "write",
        verb: "updateStatus",
        target: "foos/ns/a/status",
        code: 200,
        rv: "1",
        changed: false,
      }),
    );
    a.push(ev({ stage: "done", outcome: "synced" }));
    const s = a.summary("ns/a")!;
    expect(s.conflicts).toBe(1);
    expect(s.passCauses).toMatchObject({ external: 1, retry: 1 });
    expect(s.changingWrites).toBe(0);
    expect(s.noopWrites).toBe(1);
    expect(s.quiescent).toBe(true);
    expect(s.reconcilesForCreate).toBe(2);
    expect(
      a
        .findings()
        .map((f) => f.kind)
        .sort(),
    ).toEqual(["conflict", "retry"]);
  });

  it("does not call a key whose last pass failed at shutdown (dropped) quiescent", () => {
    const { a, ev } = conflictedCreate();
    // The hot-loop sample's last pass: the queue was shutting down, so the error was not requeued.
    a.push(ev({ stage: "done", outcome: "dropped", error: "the object has been modified" }));
    const s = a.summary("ns/a")!;
    expect(s.quiescent).toBe(false);
    expect(s.reconcilesForCreate).toBeNull();
  });

  it("keeps orphaned watch events out of per-key stats", () => {
    const a = new Analyzer();
    a.push(orphanWatch({ ns: "kube-system", name: "coredns" }));
    expect(a.keys()).toEqual([]);
    expect(a.snapshot().byStage.watch).toBe(1);
    expect(a.findings()[0].kind).toBe("orphan");
  });

  it("finds an error the controller logged about a Foo, with what to do about it", () => {
    const a = new Analyzer();
    const note = { seq: 1, ts: 1, key: "default/broken", stage: "note", level: "E" } as const;
    a.push({ ...note, text: "Deployment name missing from object reference" });
    a.push({ ...note, seq: 2, text: "Deployment name missing from object reference" });
    a.push({ ...note, seq: 3, level: "I", text: "Event occurred" });
    expect(a.findings()).toEqual([
      {
        kind: "error",
        key: "default/broken",
        seq: 1,
        lastSeq: 2,
        detail:
          "the controller logged: Deployment name missing from object reference — the Foo has no spec.deploymentName; set it (kubectl edit foo) ×2",
        count: 2,
        lives: 1,
      },
    ]);
  });

  it("takes the delete of a deleted Foo's Deployment for garbage collection, not a finding", () => {
    const a = new Analyzer();
    const gc = orphanWatch({ event: "delete" });
    a.push(gc);
    expect(a.snapshot().byStage.watch).toBe(1);
    expect(a.findings()).toEqual([]);
    a.push({ ...gc, seq: 2, event: "update" });
    expect(a.findings().map((f) => f.kind)).toEqual(["orphan"]);
  });

  it("takes an initial-list add of a Deployment whose Foo is not listed yet for no finding", () => {
    // The Deployment informer may list before the Foo informer has: sample-controller then
    // ignores the add, and the Foo's own add queues its key.
    const a = new Analyzer();
    const listed = orphanWatch({ initial: true });
    a.push(listed);
    expect(a.snapshot().byStage.watch).toBe(1);
    expect(a.findings()).toEqual([]);
    a.push({ ...listed, seq: 2, event: "update", initial: undefined });
    expect(a.findings().map((f) => f.kind)).toEqual(["orphan"]);
  });
});

describe("a Foo deleted and created again (a second add for its key)", () => {
  /** A fixture's events as the life of KEY, `shift` µs later, its resourceVersions moved on. */
  const life = (file: string, shift: number, rvShift: number): TraceEvent[] =>
    readTraceText(fixture(`stage/${file}`), { year: 2026 }).events.map((e) => {
      const x = { ...e, key: KEY, ts: e.ts + shift } as Record<string, unknown>;
      for (const f of ["rv", "oldRv"]) {
        if (typeof x[f] === "string") x[f] = String(Number(x[f]) + rvShift);
      }
      return x as unknown as TraceEvent;
    });
  const numbered = (events: TraceEvent[]) => events.map((e, i) => ({ ...e, seq: i + 1 }));
  const first = life("hot-loop.log", 0, 0);
  const deleted = {
    ...first[first.length - 1],
    stage: "watch",
    kind: "Foo",
    event: "delete",
    name: "example-foo",
    ns: "default",
    ts: first[first.length - 1].ts + 1000,
  } as TraceEvent;
  const second = life("create-canonical.log", 3_600_000_000, 50_000);
  const run = (events: TraceEvent[]) => {
    const a = new Analyzer();
    for (const e of numbered(events)) a.push(e);
    return a;
  };

  it("summarises the new life alone: counts, causes, reconciles, no hot loop carried over", () => {
    const looped = run(first).summary(KEY)!;
    expect(looped.hotLoop).toBe(true);
    const both = run([...first, deleted, ...second]);
    const alone = run(second);
    expect(both.summary(KEY)).toEqual(alone.summary(KEY));
    expect(both.summary(KEY)!.reconcilesForCreate).toBe(alone.summary(KEY)!.reconcilesForCreate);
    // The old life's passes stay listed (the timeline shows them), its hot-loop finding too.
    expect(both.passes(KEY).length).toBe(run(first).passes(KEY).length + alone.passes(KEY).length);
    expect(both.findings().some((f) => f.kind === "hot-loop")).toBe(true);
  });

  it("numbers the new life's passes from 1, as the excerpt does; indexes stay unique", () => {
    const firstPasses = run(first).passes(KEY).length;
    const passes = run([...first, deleted, ...second]).passes(KEY);
    expect(passes.map((p) => p.index)).toEqual(passes.map((_, i) => i));
    expect(passes.map((p) => p.number)).toEqual([
      ...Array.from({ length: firstPasses }, (_, i) => i + 1),
      ...run(second)
        .passes(KEY)
        .map((p) => p.number),
    ]);
    expect(passes[firstPasses]!.number).toBe(1);
    const excerpt = buildExcerpt(numbered([...first, deleted, ...second]), { key: KEY })!;
    const shown = excerpt.rows.flatMap((r) => (r.kind === "pass" ? [r.number] : []));
    expect(shown).toEqual(
      passes.slice(firstPasses, firstPasses + shown.length).map((p) => p.number),
    );
  });

  it("the excerpt is the new life's", () => {
    const both = buildExcerpt(numbered([...first, deleted, ...second]), { key: KEY })!;
    const alone = buildExcerpt(numbered(second), { key: KEY })!;
    expect(renderExcerptText(both)).toEqual(renderExcerptText(alone));
  });

  it("events after the first life without a new add change nothing", () => {
    const a = run([...first, deleted]).summary(KEY)!;
    expect(a.hotLoop).toBe(true);
    expect(a.byStage.watch).toBe(run(first).summary(KEY)!.byStage.watch + 1);
  });
});

describe("a pass that ended in error owes a retry", () => {
  // The recorded create: pass 2 conflicts and is requeued, pass 3 (an earlier watch's add) runs
  // and succeeds, and only then does the rate-limited re-add fire (line 24) for pass 4.
  const text = readFileSync(
    fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url)),
    "utf8",
  );
  const upTo = (lines: number) => readTraceText(text.split("\n").slice(0, lines).join("\n") + "\n");
  const summaryAfter = (lines: number) => {
    const a = new Analyzer();
    a.pushAll(upTo(lines).events);
    return a.summary(KEY)!;
  };

  it("is not quiescent while the re-add has not come, though its latest pass succeeded", () => {
    const cut = summaryAfter(23);
    expect(cut.passes).toBe(3);
    expect([cut.quiescent, cut.reconcilesForCreate]).toEqual([false, null]);
  });

  it("counts on once the retry ran", () => {
    const whole = summaryAfter(Infinity);
    expect(whole.quiescent).toBe(true);
    expect(whole.reconcilesForCreate).toBeGreaterThan(3);
  });
});

/**
 * The create of burst.jsonl's default/burst-08: the Deployment's add event came 8 ms before the
 * create's own log line (the API server sent the event before the create's response arrived).
 */
describe("a watch event logged before the write it echoes", () => {
  function earlyEcho(createChanged?: boolean) {
    const ev = eventsOfKeyA();
    const events = [
      ...createdAndRead(ev),
      ev({ stage: "watch", kind: "Deployment", event: "add", name: "a", rv: "11" }),
      ev({ stage: "enqueue", cause: "watch", causeSeq: 5, merged: "processing" }),
      ev({
        stage: "write",
        verb: "create",
        target: "deployments/ns/a",
        code: 201,
        rv: "11",
        ...(createChanged !== undefined ? { changed: createChanged } : {}),
      }),
      ev({ stage: "done", outcome: "synced" }),
      ev({ stage: "dequeue" }),
      ev({ stage: "read", rv: "10" }),
      ev({ stage: "done", outcome: "synced" }),
    ];
    const a = new Analyzer();
    a.pushAll(events);
    return { a, events };
  }

  it("is matched by rv when the write comes: the pass it triggers is self-triggered", () => {
    for (const changed of [true, undefined]) {
      const { a } = earlyEcho(changed);
      const [, second] = a.passes("ns/a");
      expect(second.cause).toBe("self");
      expect(second.triggers).toEqual([
        { enqueueSeq: 6, watchSeq: 5, writeSeq: 7, cause: "self", inferred: false },
      ]);
      const s = a.summary("ns/a")!;
      expect(s.passCauses).toMatchObject({ external: 1, self: 1 });
      // Its echo proves the create changed something, though the log did not say.
      expect(s.changingWrites).toBe(1);
      expect(s.noopWrites).toBe(0);
    }
  });

  it("is told so by the excerpt and the narration", () => {
    const { events } = earlyEcho(true);
    const text = renderExcerptText(buildExcerpt(events, { key: "ns/a" })!);
    expect(text).toMatch(/kind=Deployment event=add .*‹self, echo of the create at \+0\.\d{3}s›/);
    expect(text).toContain("pass 2 · self");
    const n = narrate(events).find((x) => x.seq === 5)!;
    expect(n.self).toBe(true);
    expect(n.text).toContain("echo of our own create logged below at seq 7");
    expect(narrate(events).find((x) => x.seq === 6)!.text).toContain(
      "echo of our own write at seq 7",
    );
  });

  it("is not matched by a write the log calls a no-op (it returned someone else's rv)", () => {
    const ev = eventsOfKeyA();
    const a = new Analyzer();
    a.pushAll([
      ...createdAndRead(ev),
      ev({ stage: "watch", kind: "Foo", event: "update", name: "a", rv: "20", oldRv: "10" }),
      ev({ stage: "enqueue", cause: "watch", causeSeq: 5, merged: "processing" }),
      ev({
        stage: "write",
        verb: "patch",
        target: "foos/ns/a/status",
        code: 200,
        rv: "20",
        changed: false,
      }),
      ev({ stage: "done", outcome: "synced" }),
      ev({ stage: "dequeue" }),
      ev({ stage: "done", outcome: "synced" }),
    ]);
    expect(a.passes("ns/a")[1]!.cause).toBe("external");
    expect(a.summary("ns/a")!.noopWrites).toBe(1);
  });

  it("is not matched when it came before the writing pass began (a no-op write returns the rv it found)", () => {
    const ev = eventsOfKeyA();
    const a = new Analyzer();
    a.pushAll([
      ...createdAndRead(ev),
      ev({ stage: "write", verb: "patch", target: "foos/ns/a/status", code: 200, rv: "10" }),
      ev({ stage: "done", outcome: "synced" }),
    ]);
    const [first] = a.passes("ns/a");
    expect(first.triggers[0].cause).toBe("external");
    expect(a.summary("ns/a")!.noopWrites).toBe(1);
  });
});

describe("the reconcile count of a create followed by a new action", () => {
  function settledThen(next: Record<string, unknown>) {
    const ev = eventsOfKeyA();
    const a = new Analyzer();
    a.pushAll([
      ...createdAndRead(ev),
      ev({ stage: "write", verb: "create", target: "deployments/ns/a", code: 201, rv: "11" }),
      ev({ stage: "done", outcome: "synced" }),
      ev({ stage: "watch", kind: "Deployment", event: "add", name: "a", rv: "11" }),
      ev({ stage: "enqueue", cause: "watch", causeSeq: 7 }),
      ev({ stage: "dequeue" }),
      ev({ stage: "read", rv: "10" }),
      ev({ stage: "done", outcome: "synced" }),
      // Settled after pass 2. Then:
      ev({ stage: "watch", name: "a", ...next }),
      ev({ stage: "enqueue", cause: "watch", causeSeq: 12 }),
      ev({ stage: "dequeue" }),
      ev({ stage: "read", rv: "20" }),
      ev({ stage: "write", verb: "update", target: "deployments/ns/a", code: 200, rv: "21" }),
      ev({ stage: "done", outcome: "synced" }),
      ev({ stage: "dequeue" }),
      ev({ stage: "read", rv: "20" }),
      ev({ stage: "done", outcome: "synced" }),
    ]);
    return a.summary("ns/a")!;
  }

  it("ends at the settled pass when a user then edits the Foo (kubectl scale)", () => {
    expect(
      settledThen({ kind: "Foo", event: "update", rv: "20", oldRv: "10" }).reconcilesForCreate,
    ).toBe(2);
  });

  it("ends there too when the Foo's Deployment is then deleted", () => {
    expect(settledThen({ kind: "Deployment", event: "delete", rv: "20" }).reconcilesForCreate).toBe(
      2,
    );
  });

  it("goes on through another writer's Deployment update (its rollout)", () => {
    expect(
      settledThen({ kind: "Deployment", event: "update", rv: "20", oldRv: "11" })
        .reconcilesForCreate,
    ).toBe(4);
  });
});

describe("a Foo deleted under loopscope proxy (its trace: the wire, every enqueue inferred)", () => {
  // The tail of a proxy recording: a create's last no-op pass, then `kubectl delete foo`. The
  // proxy infers an enqueue from the delete; the pass it starts reads a gone Foo from the
  // controller's cache and never reaches the wire.
  const lines = [
    {
      stage: "watch",
      key: KEY,
      kind: "Foo",
      event: "add",
      name: "example-foo",
      ns: "default",
      rv: "10",
    },
    { stage: "enqueue", key: KEY, cause: "watch", inferred: true, causeSeq: 1 },
    {
      stage: "write",
      key: KEY,
      verb: "updateStatus",
      target: "foos/default/example-foo/status",
      code: 200,
      rv: "11",
      changed: true,
    },
    { stage: "done", key: KEY, outcome: "synced", inferred: true },
    {
      stage: "watch",
      key: KEY,
      kind: "Foo",
      event: "update",
      name: "example-foo",
      ns: "default",
      rv: "11",
      oldRv: "10",
    },
    { stage: "enqueue", key: KEY, cause: "watch", inferred: true, causeSeq: 5 },
    {
      stage: "write",
      key: KEY,
      verb: "updateStatus",
      target: "foos/default/example-foo/status",
      code: 200,
      rv: "11",
      changed: false,
    },
    { stage: "done", key: KEY, outcome: "synced", inferred: true },
    {
      stage: "watch",
      key: KEY,
      kind: "Foo",
      event: "delete",
      name: "example-foo",
      ns: "default",
      rv: "12",
    },
    {
      stage: "watch",
      key: "",
      kind: "Deployment",
      event: "delete",
      name: "example-foo",
      ns: "default",
      rv: "13",
    },
    { stage: "enqueue", key: KEY, cause: "watch", inferred: true, causeSeq: 9 },
  ];
  const events = lines.map((e, i) => ({ ...e, ts: 1_000_000 * (i + 1), seq: i + 1 }) as TraceEvent);

  it("is quiescent after the delete: no pass is owed to the inferred enqueue", () => {
    const a = new Analyzer();
    a.pushAll(events.slice(0, 8));
    expect(a.summary(KEY)?.quiescent).toBe(true);
    a.pushAll(events.slice(8));
    expect(a.summary(KEY)?.quiescent).toBe(true);
  });

  it("says the Foo deleted, until it is created again", () => {
    const a = new Analyzer();
    a.pushAll(events.slice(0, 8));
    expect(a.summary(KEY)?.deleted).toBe(false);
    a.pushAll(events.slice(8));
    expect(a.summary(KEY)?.deleted).toBe(true);
    a.push({ ...events[0], seq: 20, ts: 20_000_000, rv: "30" } as TraceEvent);
    expect(a.summary(KEY)?.deleted).toBe(false);
  });

  it("is still settling after an inferred enqueue while the Foo exists", () => {
    const a = new Analyzer();
    a.pushAll(events.slice(0, 6));
    expect(a.summary(KEY)?.quiescent).toBe(false);
  });
});
