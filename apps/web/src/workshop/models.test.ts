/** The workshop's pure models: expectations, queue numbers, compare sides, step navigation. */
import { describe, expect, it } from "vitest";
import { Analyzer, buildExcerpt, type TraceEvent } from "@loopscope/trace";
import { expectations } from "./expectations.ts";
import { queueModel, waitAndWork } from "./queueModel.ts";
import { compareRows, originWords, runSide, type SideSource } from "./compareModel.ts";
import { neighbour } from "./stepping.ts";
import { countTicks } from "./countTicks.ts";
import { msTicks } from "./msTicks.ts";
import { scaleLinear } from "d3";

type Draft = TraceEvent extends infer E
  ? E extends TraceEvent
    ? Omit<E, "seq" | "ts">
    : never
  : never;
const KEY = "default/example-foo";
const STATUS = "foos/default/example-foo/status";

function trace(drafts: Draft[]): TraceEvent[] {
  return drafts.map((d, i) => ({ ...d, seq: i + 1, ts: 1_000_000 + i * 1000 }) as TraceEvent);
}

const CREATE = trace([
  { stage: "watch", key: KEY, kind: "Foo", event: "add", name: "example-foo", rv: "10" },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 1, len: 1, merged: false },
  { stage: "dequeue", key: KEY, worker: 1, len: 0 },
  { stage: "read", key: KEY, rv: "10", worker: 1 },
  {
    stage: "write",
    key: KEY,
    verb: "create",
    target: "deployments/default/example-foo",
    code: 201,
    rv: "11",
    changed: true,
    worker: 1,
  },
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
  { stage: "watch", key: KEY, kind: "Deployment", event: "add", name: "example-foo", rv: "11" },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 8, len: 1, merged: false },
  {
    stage: "watch",
    key: KEY,
    kind: "Foo",
    event: "update",
    name: "example-foo",
    rv: "12",
    oldRv: "10",
  },
  { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 10, len: 1, merged: "dirty" },
  { stage: "dequeue", key: KEY, worker: 2, len: 0 },
  { stage: "read", key: KEY, rv: "12", worker: 2 },
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
  { stage: "done", key: KEY, outcome: "requeued", delayMs: 5, worker: 2 },
  { stage: "enqueue", key: KEY, cause: "retry", delayMs: 5, len: 1, merged: false },
  { stage: "dequeue", key: KEY, worker: 1, len: 0 },
  { stage: "read", key: KEY, rv: "12", worker: 1 },
  {
    stage: "write",
    key: KEY,
    verb: "updateStatus",
    target: STATUS,
    code: 200,
    rv: "12",
    changed: false,
    worker: 1,
  },
  { stage: "done", key: KEY, outcome: "synced", worker: 1 },
]);

function analyzed() {
  const a = new Analyzer();
  a.pushAll(CREATE);
  return a;
}

describe("expectations", () => {
  it("counts tags, finds which writes echoed, judges the second pass", () => {
    const a = analyzed();
    const x = expectations(buildExcerpt(CREATE, { key: KEY })!, a.summary(KEY)!);
    expect(x.counts.find((c) => c.stage === "write")!.observed).toBe(4);
    expect(x.counts.find((c) => c.stage === "watch")!.observed).toBe(3);
    const bySeq = new Map(x.writes.map((w) => [w.write.seq, w]));
    expect(bySeq.get(5)).toMatchObject({ echoSeq: 8, echoWhat: "Deployment add" });
    expect(bySeq.get(6)).toMatchObject({ echoSeq: 10, echoWhat: "Foo update" });
    expect(bySeq.get(19)).toMatchObject({ noop: true });
    expect(bySeq.has(14)).toBe(false); // refused writes are not writes that could echo
    // Pass 2's write failed with 409 and was requeued: it read a Foo already out of date. It is
    // judged by its retry, the same reconcile on the state it should have seen: a no-op.
    expect(x.secondPass?.ok).toBe(true);
    expect(x.secondPass?.judged.number).toBe(3);
    expect(x.secondPass?.stumbled.map((p) => p.number)).toEqual([2]);
    expect(x.secondPass?.why).toBe(
      "pass 2's write was refused with 409 (the Foo it had read was already out of date); the retry, pass 3, found nothing to do",
    );
    expect(x.writeDown).toContain("second pass a no-op: yes (pass 2's write was refused");
    expect(x.firstSelf?.judged.number).toBe(3);
    expect(x.writeDown).toContain("STAGE/write ×4");
  });

  it("counts an echo logged before its write's own line (two workers), as the excerpt does", () => {
    // The Deployment's add (rv 11) is logged before the create that made it returned.
    const early = trace([
      ...CREATE.slice(0, 4).map(({ seq: _s, ts: _t, ...d }) => d as Draft),
      { stage: "watch", key: KEY, kind: "Deployment", event: "add", name: "example-foo", rv: "11" },
      { stage: "enqueue", key: KEY, cause: "watch", causeSeq: 5, len: 0, merged: "processing" },
      ...CREATE.slice(4, 7).map(({ seq: _s, ts: _t, ...d }) => d as Draft),
      ...CREATE.slice(9).map(({ seq: _s, ts: _t, ...d }) => d as Draft),
    ]);
    const a = new Analyzer();
    a.pushAll(early);
    const excerpt = buildExcerpt(early, { key: KEY })!;
    const x = expectations(excerpt, a.summary(KEY)!);
    const create = x.writes.find((w) => w.write.verb === "create")!;
    expect(create).toMatchObject({ echoSeq: 5, echoWhat: "Deployment add" });
    // The excerpt marks the same watch event as the create's echo.
    const marked = excerpt.rows.find((r) => r.kind === "event" && r.event.seq === 5);
    expect(marked?.kind === "event" && marked.note).toMatch(/^self, echo of the create/);
    expect(x.writeDown).toContain("writes that came back as watch events: 2 of the 3");
  });

  it("judges a stumble by its retry: a retry that writes again is no no-op (the hot loop)", () => {
    const hot = CREATE.map((e) =>
      e.seq === 19 && e.stage === "write"
        ? ({ ...e, rv: "13", changed: true, fields: ["status.lastSyncedAt"] } as TraceEvent)
        : e,
    );
    const a = new Analyzer();
    a.pushAll(hot);
    const x = expectations(buildExcerpt(hot, { key: KEY })!, a.summary(KEY)!);
    expect(x.secondPass?.ok).toBe(false);
    expect(x.secondPass?.why).toMatch(/; the retry, pass 3, changed status\.lastSyncedAt$/);
    expect(x.writeDown).toContain("second pass a no-op: no (pass 2's write was refused");
  });

  it("writes down a Foo of the informer's initial list as listed at start, not as one create", () => {
    const listed = CREATE.map((e) =>
      e.stage === "watch" && e.kind === "Foo" && e.event === "add"
        ? ({ ...e, initial: true } as TraceEvent)
        : e,
    );
    const a = new Analyzer();
    a.pushAll(listed);
    const x = expectations(buildExcerpt(listed, { key: KEY })!, a.summary(KEY)!);
    expect(x.listed).toBe(true);
    expect(x.writeDown).toContain(`${KEY}, listed by the informer at start`);
    expect(x.writeDown).toContain("reconcile count from the initial list: ");
    expect(x.writeDown).not.toMatch(/create of|for one create/);
  });

  it("has no verdict while the pass to judge is still open", () => {
    const open = CREATE.slice(0, 18); // the retry dequeued and read, not done
    const a = new Analyzer();
    a.pushAll(open);
    const x = expectations(buildExcerpt(open, { key: KEY })!, a.summary(KEY)!);
    expect(x.secondPass).toBeUndefined();
    expect(x.writeDown).toContain("second pass a no-op: not yet");
  });

  it("is about a re-created Foo's latest life, not the sum of its lives", () => {
    // The same create again later, under the same name, with new resourceVersions.
    const again = CREATE.map((e) => {
      const rv = (v: string | undefined) => (v === undefined ? v : String(Number(v) + 100));
      const copy = { ...e, seq: e.seq + 100, ts: e.ts + 60_000_000 } as TraceEvent & {
        rv?: string;
        oldRv?: string;
        causeSeq?: number;
      };
      if (copy.rv !== undefined) copy.rv = rv(copy.rv);
      if (copy.oldRv !== undefined) copy.oldRv = rv(copy.oldRv);
      if (copy.causeSeq !== undefined) copy.causeSeq += 100;
      return copy;
    });
    const both = [...CREATE, ...again];
    const a = new Analyzer();
    a.pushAll(both);
    const x = expectations(buildExcerpt(both, { key: KEY })!, a.summary(KEY)!);
    expect(x.counts.find((c) => c.stage === "write")!.observed).toBe(4);
    expect(x.writes.every((w) => w.write.seq > 100)).toBe(true);
    expect(x.writeDown).toContain(
      "writes that came back as watch events: 2 of the 3 that succeeded",
    );
  });
});

describe("queueModel", () => {
  it("has depth points, one backoff step, and wait/work per pass", () => {
    const a = analyzed();
    const m = queueModel(CREATE, (k) => a.passes(k), [KEY]);
    expect(m.depth.map((d) => d.len)).toEqual([1, 0, 1, 1, 0, 1, 0]);
    expect([...m.backoff.values()]).toEqual([[{ t: 14, delayMs: 5, attempt: 1 }]]);
    expect(m.passes).toHaveLength(3);
    // Pass 2 waited from its first trigger (seq 9, 8 ms) to its dequeue (seq 12, 11 ms).
    expect(m.passes[1]).toMatchObject({ queuedAt: 8, start: 11, end: 14 });
    expect(waitAndWork(m.passes).workMs).toBe(4 + 3 + 3);
  });
});

describe("runSide", () => {
  it("aligns a run at its Foo's creation", () => {
    const a = analyzed();
    const src: SideSource = {
      name: "x",
      keys: [KEY],
      events: () => CREATE,
      summary: (k) => a.summary(k),
      passes: (k) => a.passes(k),
    };
    const side = runSide(src);
    expect(side.key).toBe(KEY);
    expect(side.passes[0]!.start).toBe(2);
    expect(side.writes).toEqual([4, 5, 18]);
  });

  it("names both runs by their file: the open sample's folder is left out, as the picked one's is", () => {
    const a = analyzed();
    const named = (name: string) =>
      runSide({
        name,
        keys: [KEY],
        events: () => CREATE,
        summary: (k) => a.summary(k),
        passes: (k) => a.passes(k),
      }).name;
    // The page opens a sample by its path (traces/…, for its link); the compare picks by file.
    expect(named("traces/hot-loop.jsonl")).toBe("hot-loop.jsonl");
    expect(named("fix-hot-loop.jsonl")).toBe("fix-hot-loop.jsonl");
    expect(named("2026-12-02T09-14-06Z.jsonl")).toBe("2026-12-02T09-14-06Z.jsonl");
  });
});

describe("compare of a Foo that existed before the run (listed)", () => {
  // The same events, but the Foo's add is of the informer's initial list.
  const LISTED = CREATE.map((e, i) => (i === 0 ? ({ ...e, initial: true } as TraceEvent) : e));
  function side(events: TraceEvent[], name: string) {
    const a = new Analyzer();
    a.pushAll(events);
    return runSide({
      name,
      keys: [KEY],
      events: () => events,
      summary: (k) => a.summary(k),
      passes: (k) => a.passes(k),
    });
  }
  const reconcileRow = (sides: ReturnType<typeof side>[]) =>
    compareRows(sides).find((r) => r.label.startsWith("reconcile count"))!;

  it("aligns it at the initial list and never calls it created", () => {
    const listed = side(LISTED, "listed");
    expect(listed.listed).toBe(true);
    expect(listed.passes[0]!.start).toBe(2);
    const row = reconcileRow([listed, side(LISTED, "again")]);
    expect(row.label).toBe("reconcile count from the initial list");
    expect(originWords([listed]).mark).toBe("Foo listed (initial list)");
    expect(originWords([listed]).caption).not.toMatch(/creat/);
  });

  it("against a created Foo, says which count is which", () => {
    const listed = side(LISTED, "listed");
    const created = side(CREATE, "created");
    const row = reconcileRow([created, listed]);
    expect(row.label).toBe("reconcile count for one create, or from the initial list");
    expect(row.value(listed.summary!)).toBe(
      `${listed.summary!.reconcilesForCreate} (from the initial list)`,
    );
    expect(row.value(created.summary!)).toBe(created.summary!.reconcilesForCreate);
    expect(originWords([created, listed]).mark).toBe("Foo created / listed");
    expect(reconcileRow([created, created]).label).toBe("reconcile count for one create");
    expect(originWords([created]).mark).toBe("Foo created");
  });
});

describe("a Foo with two lives (a live session that ran two scenarios)", () => {
  const again = CREATE.map((e) => {
    const copy = { ...e, seq: e.seq + 100, ts: e.ts + 60_000_000 } as TraceEvent & {
      rv?: string;
      oldRv?: string;
      causeSeq?: number;
    };
    if (copy.rv !== undefined) copy.rv = String(Number(copy.rv) + 100);
    if (copy.oldRv !== undefined) copy.oldRv = String(Number(copy.oldRv) + 100);
    if (copy.causeSeq !== undefined) copy.causeSeq += 100;
    return copy;
  });
  const both = [...CREATE, ...again];
  const a = new Analyzer();
  a.pushAll(both);

  it("compares the latest life: its passes and writes, on an axis from its creation", () => {
    const side = runSide({
      name: "live",
      keys: [KEY],
      events: () => both,
      summary: (k) => a.summary(k),
      passes: (k) => a.passes(k),
    });
    expect(side.passes).toHaveLength(a.summary(KEY)!.passes);
    expect(side.passes[0]!.start).toBe(2);
    expect(side.writes).toEqual([4, 5, 18]);
  });

  it("draws the queue from the latest life on", () => {
    const from = a.summary(KEY)!.firstTs;
    const m = queueModel(
      both.filter((e) => e.ts >= from),
      (k) => a.passes(k),
      [KEY],
    );
    expect(m.passes).toHaveLength(3);
    expect(m.tEnd).toBeLessThan(60_000);
  });
});

describe("neighbour", () => {
  it("steps within the list, clamps at the ends, finds the nearest step from elsewhere", () => {
    const steps = [2, 5, 9];
    expect(neighbour(steps, undefined, 1)).toBe(2);
    expect(neighbour(steps, 5, 1)).toBe(9);
    expect(neighbour(steps, 9, 1)).toBe(9);
    expect(neighbour(steps, 2, -1)).toBe(2);
    expect(neighbour(steps, 6, 1)).toBe(9);
    expect(neighbour(steps, 6, -1)).toBe(5);
    expect(neighbour([], 1, 1)).toBeUndefined();
  });
});

describe("queue depth axis", () => {
  it("counts keys in whole numbers (a depth of at most 1 has ticks 0 and 1, not 0.5)", () => {
    expect(countTicks(scaleLinear().domain([0, 1]), 3)).toEqual([0, 1]);
    expect(countTicks(scaleLinear().domain([0, 2]), 3)).toEqual([0, 1, 2]);
    expect(countTicks(scaleLinear().domain([0, 40]), 3)).toEqual([0, 10, 20, 30, 40]);
  });
});

describe("the queue and compare views' time axes", () => {
  const labels = (end: number, n: number) =>
    msTicks(scaleLinear().domain([0, end]), n).map((t) => t.label);

  it("label every tick in one unit: seconds once a tick reaches a second, to the step's digit", () => {
    // A live session's minute: "0.0 ms" stood beside "10.00 s".
    expect(labels(56_000, 5)).toEqual(["0 s", "10 s", "20 s", "30 s", "40 s", "50 s"]);
    // Under ten seconds, as many digits as the step needs: no "800 ms" beside "1.0 s".
    expect(labels(1_650, 6)).toEqual([
      "0.0 s",
      "0.2 s",
      "0.4 s",
      "0.6 s",
      "0.8 s",
      "1.0 s",
      "1.2 s",
      "1.4 s",
      "1.6 s",
    ]);
    expect(labels(650, 5)).toEqual([
      "0 ms",
      "100 ms",
      "200 ms",
      "300 ms",
      "400 ms",
      "500 ms",
      "600 ms",
    ]);
    expect(labels(0.8, 4)).toEqual(["0.0 ms", "0.2 ms", "0.4 ms", "0.6 ms", "0.8 ms"]);
  });
});
