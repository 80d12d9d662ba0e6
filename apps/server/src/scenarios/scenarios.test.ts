/**
 * Every scenario, headless: the real embedded API server and the real Foo controller over HTTP
 * (short simulated timings), and the analysed trace shows what the scenario teaches. The runs are
 * independent clusters, so they run concurrently.
 */
import { describe, expect, it } from "vitest";
import type { Pass, TraceEvent } from "@loopscope/trace";
import { scenarios } from "./index.ts";
import { FAST_CLUSTER, runHeadless, type HeadlessRun } from "./headless.ts";
import { HOT_LOOP_PASSES } from "./hot-loop.ts";
import { CONFLICTS, conflictsFound } from "./conflict.ts";
import { RETRIES } from "./not-owned.ts";
import { BURST_NAMES } from "./burst.ts";
import { WRITE_LATENCY_MS } from "./slow-api.ts";
import { fooObject, ofKey } from "./steps.ts";
import { KubeClient } from "./kube-client.ts";
import { EventLog } from "./event-log.ts";
import { runScenario } from "./run-scenario.ts";
import { startSession } from "../session/session.ts";

const KEY = "default/example-foo";

async function run(name: string, log?: (m: string) => void): Promise<HeadlessRun> {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`no scenario ${name}`);
  const r = await runHeadless(scenario, { apiserverOpts: FAST_CLUSTER, timeoutMs: 30_000, log });
  if (r.error) throw r.error;
  return r;
}

function overlaps(a: Pass, b: Pass): boolean {
  return a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity);
}

function allPasses(r: HeadlessRun): Pass[] {
  return r.events.analyzer.keys().flatMap((k) => [...r.events.analyzer.passes(k)]);
}

function notes(evs: readonly TraceEvent[]): string[] {
  return evs.flatMap((e) => (e.stage === "note" ? [e.text] : []));
}

describe.concurrent("scenarios (headless, embedded API server)", () => {
  it("registry: every scenario of the workshop is there, each with a title and a lesson", () => {
    expect(Object.keys(scenarios).sort()).toEqual(
      [
        "burst",
        "burst-4",
        "conflict",
        "create-foo",
        "delete-and-recreate",
        "delete-child",
        "fix-hot-loop",
        "hot-loop",
        "not-owned",
        "scale",
        "slow-api",
        "watch-drop",
      ].sort(),
    );
    for (const s of Object.values(scenarios)) {
      expect(s.title.length).toBeGreaterThan(5);
      expect(s.teaches.length).toBeGreaterThan(20);
    }
  });

  it("create-foo: several passes, self-triggered ones among them, then quiescent", async () => {
    const r = await run("create-foo");
    const s = r.events.analyzer.summary(KEY)!;
    expect(s.quiescent).toBe(true);
    expect(s.hotLoop).toBe(false);
    expect(s.passes).toBeGreaterThanOrEqual(2);
    const triggers = r.events.analyzer.passes(KEY).flatMap((p) => p.triggers);
    expect(triggers.some((t) => t.cause === "self" && t.writeSeq !== undefined)).toBe(true);
    expect(s.byStage.write).toBeGreaterThan(1);
    expect(notes(r.events.events)).toContain("scenario: kubectl apply -f example-foo.yaml");
  });

  it("delete-and-recreate: the delete is an orphaned Deployment event, no pass, no finding; the new Foo settles", async () => {
    const r = await run("delete-and-recreate");
    const del = r.events.events.find(
      (e) => e.stage === "watch" && e.kind === "Deployment" && e.event === "delete",
    )!;
    expect(del).toBeDefined();
    if (del.key === "") {
      // The usual order: no Foo any more, nothing queued until the new apply.
      const reapply = r.events.events.findLast((e) => e.stage === "note")!;
      const between = r.events.events.filter((e) => e.seq > del.seq && e.seq < reapply.seq);
      expect(between.filter((e) => e.stage === "enqueue")).toEqual([]);
      // Garbage collection after `kubectl delete foo`: nothing wrong to report.
      expect(r.events.analyzer.findings().filter((f) => f.kind === "orphan")).toEqual([]);
    } else {
      // The Deployment's event won the race with the Foo's: a pass finds the Foo gone.
      expect(ofKey(r.events.events, KEY, "read").some((e) => e.found === false)).toBe(true);
    }
    const creates = ofKey(r.events.events, KEY, "write").filter(
      (w) => w.verb === "create" && w.code === 201,
    );
    expect(creates.length).toBe(2);
    expect(r.events.analyzer.summary(KEY)!.quiescent).toBe(true);
  });

  it("scale: an external pass updates spec.replicas of the Deployment; status reaches 3", async () => {
    const r = await run("scale");
    const update = ofKey(r.events.events, KEY, "write").find(
      (w) => w.verb === "update" && w.target === "deployments/default/example-foo",
    )!;
    expect(update.fields).toContain("spec.replicas");
    const pass = r.events.analyzer.passes(KEY).find((p) => p.writeSeqs.includes(update.seq))!;
    expect(pass.cause).toBe("external");
    expect(r.events.analyzer.summary(KEY)!.quiescent).toBe(true);
  });

  it("hot-loop: the finding names the timestamp field; writes keep changing the Foo", async () => {
    const said: string[] = [];
    const r = await run("hot-loop", (m) => said.push(m));
    const a = r.events.analyzer;
    const loop = a.findings().find((f) => f.kind === "hot-loop" && f.key === KEY)!;
    // Headless the bug stays on until the run ends: the count it says is the count so far.
    expect(said.at(-1)).toMatch(/^hot loop: .* \(so far: the loop runs on until the run ends\)$/);
    expect(loop).toBeDefined();
    expect(loop.fields?.length).toBeGreaterThan(0);
    expect(loop.fields!.every((f) => /^status\.lastSync/.test(f))).toBe(true);
    const s = a.summary(KEY)!;
    expect(s.hotLoop).toBe(true);
    expect(s.passes).toBeGreaterThanOrEqual(HOT_LOOP_PASSES);
    expect(s.selfTriggered).toBeGreaterThanOrEqual(5);
  });

  it("hot-loop on a controller without the bug (the dashboard's): said once the loop stopped, its counts final", async () => {
    const events = new EventLog();
    const session = await startSession({
      cluster: { kind: "embedded", apiserverOpts: FAST_CLUSTER },
      resyncMs: 0,
      onEvent: events.push,
    });
    const said: string[] = [];
    try {
      await runScenario(scenarios["hot-loop"]!, {
        session,
        events,
        timeoutMs: 30_000,
        log: (m) => said.push(m),
      });
      expect(session.controller.getLessons().hotLoopBug).toBe(false);
      const finding = () =>
        events.analyzer.findings().find((f) => f.kind === "hot-loop" && f.key === KEY)?.detail;
      const s = events.analyzer.summary(KEY)!;
      expect(s.hotLoop).toBe(true);
      expect(s.quiescent).toBe(true);
      expect(said.at(-1)).toBe(`hot loop: ${finding()}; it stopped once the bug was switched off`);
      // Nothing more comes: what it said stays what the findings say.
      const seen = events.events.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(events.events.length).toBe(seen);
      expect(said.at(-1)).toBe(`hot loop: ${finding()}; it stopped once the bug was switched off`);
    } finally {
      await session.stop();
    }
  });

  it("fix-hot-loop: status written only when it differs — no no-op writes, quiescent", async () => {
    const r = await run("fix-hot-loop");
    const s = r.events.analyzer.summary(KEY)!;
    expect(s.quiescent).toBe(true);
    expect(s.hotLoop).toBe(false);
    const status = ofKey(r.events.events, KEY, "write").filter(
      (w) => w.verb === "updateStatus" && w.code === 200,
    );
    expect(status.length).toBeGreaterThanOrEqual(2); // availableReplicas 0, then 1
    expect(status.every((w) => w.changed === true)).toBe(true);
    // Some pass triggered by our own write found nothing to do and wrote nothing.
    const quietSelf = r.events.analyzer
      .passes(KEY)
      .filter((p) => p.cause === "self" && p.writeSeqs.length === 0);
    expect(quietSelf.length).toBeGreaterThanOrEqual(1);
  });

  it("conflict: 409s, rate-limited retries, then convergence", async () => {
    const said: string[] = [];
    const r = await run("conflict", (m) => said.push(m));
    const s = r.events.analyzer.summary(KEY)!;
    expect(s.conflicts).toBeGreaterThanOrEqual(CONFLICTS);
    expect(r.events.analyzer.findings().some((f) => f.kind === "conflict")).toBe(true);
    const retries = ofKey(r.events.events, KEY, "enqueue").filter((e) => e.cause === "retry");
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(s.passCauses.retry).toBeGreaterThanOrEqual(1);
    expect(s.quiescent).toBe(true);
    // It says what it showed, counted from the trace.
    expect(said).toContain(conflictsFound(r.events.events, KEY));
    // Counted from the competing writer's start: a 409 of the create before it is not its doing.
    const events = r.events.events;
    const start = events.findIndex(
      (e) => e.stage === "note" && e.text.includes("a competing writer edits the Foo"),
    );
    const refused = ofKey(events.slice(start), KEY, "write").filter((w) => w.code === 409);
    expect(refused.length).toBeGreaterThanOrEqual(CONFLICTS);
    const own409 = { ...refused[0]!, seq: 0 };
    const withEarlier = [...events.slice(0, start), own409, ...events.slice(start)];
    expect(conflictsFound(withEarlier, KEY)).toMatch(
      new RegExp(`^${refused.length} writes refused with 409 Conflict, .* after 5, `),
    );
  });

  it("delete-child: the Deployment's delete event resolves to the Foo; it is created again", async () => {
    const said: string[] = [];
    const r = await run("delete-child", (m) => said.push(m));
    const del = ofKey(r.events.events, KEY, "watch").find(
      (w) => w.kind === "Deployment" && w.event === "delete",
    )!;
    expect(del).toBeDefined();
    const creates = ofKey(r.events.events, KEY, "write").filter(
      (w) => w.verb === "create" && w.code === 201,
    );
    expect(creates.length).toBe(2);
    expect(creates[1]!.seq).toBeGreaterThan(del.seq);
    expect(r.events.analyzer.summary(KEY)!.quiescent).toBe(true);
    const pass = r.events.analyzer.passes(KEY).find((p) => p.writeSeqs.includes(creates[1]!.seq))!;
    expect(said).toContain(
      `the Deployment's delete came back as a watch event of its owner example-foo; pass ${pass.number} found no Deployment in the lister and created it again`,
    );
  });

  it("not-owned: every pass fails; retry delays grow exponentially from 5 ms", async () => {
    const said: string[] = [];
    const r = await run("not-owned", (m) => said.push(m));
    const done = ofKey(r.events.events, KEY, "done").filter((d) => d.outcome === "requeued");
    // What it says counts the retries that ran, not the last pass's delay still running.
    expect(said).toContain(
      `${RETRIES} retries after delays of 5, 10, 20, 40, 80, 160 ms; the next (320 ms) was pending at the end`,
    );
    const delays = done.map((d) => d.delayMs ?? NaN);
    expect(delays.length).toBeGreaterThanOrEqual(RETRIES);
    expect(delays[0]).toBe(5);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBe(delays[i - 1]! * 2);
    expect(done.every((d) => d.error?.includes("not managed by Foo"))).toBe(true);
    expect(ofKey(r.events.events, KEY, "write").filter((w) => w.verb === "create")).toEqual([]);
  });

  it("a stopped scenario touches the cluster no more: slow-api stopped as it begins", async () => {
    const events = new EventLog();
    const session = await startSession({
      cluster: { kind: "embedded", apiserverOpts: FAST_CLUSTER },
      resyncMs: 0,
      onEvent: events.push,
    });
    try {
      const kube = new KubeClient(session.kubeConfig);
      const foo = await kube.applyFoo(fooObject("example-foo", 1));
      // Stopped before its first step: the run is answered at once, and its code, which runs on
      // to its next await, must not go on to clean up, apply its Foo or slow the API server.
      const stop = new AbortController();
      stop.abort();
      await expect(
        runScenario(scenarios["slow-api"]!, {
          session,
          events,
          timeoutMs: 30_000,
          signal: stop.signal,
        }),
      ).rejects.toThrow("scenario slow-api interrupted");
      // Long enough for the delete it would have made (the embedded cluster answers in ms).
      await new Promise((r) => setTimeout(r, 1000));
      expect((await kube.getFoo("default", "example-foo"))?.metadata?.uid).toBe(foo.metadata.uid);
      expect(session.apiserver!.faults.state().latencyMs).toEqual({});
    } finally {
      await session.stop();
    }
  });

  it("not-owned run again in the same session starts from 5 ms again, not the last run's backoff", async () => {
    // Each run its own log, as each dashboard run reads its own trace.
    let events = new EventLog();
    const session = await startSession({
      cluster: { kind: "embedded", apiserverOpts: FAST_CLUSTER },
      resyncMs: 0,
      onEvent: (e) => events.push(e),
    });
    try {
      for (let i = 0; i < 2; i++) {
        events = new EventLog();
        const said: string[] = [];
        await runScenario(scenarios["not-owned"]!, {
          session,
          events,
          timeoutMs: 30_000,
          log: (m) => said.push(m),
        });
        expect(said, `run ${i + 1}: ${said.join(" | ")}`).toContain(
          `${RETRIES} retries after delays of 5, 10, 20, 40, 80, 160 ms; the next (320 ms) was pending at the end`,
        );
      }
    } finally {
      await session.stop();
    }
  });

  it("slow-api: passes with writes last at least the injected latency; events merge while processing", async () => {
    const r = await run("slow-api");
    const passes = r.events.analyzer.passes(KEY);
    const writing = passes.filter((p) => p.writeSeqs.length > 0);
    expect(writing.length).toBeGreaterThan(0);
    for (const p of writing)
      expect(p.end! - p.start).toBeGreaterThanOrEqual(WRITE_LATENCY_MS * 1000);
    const merged = ofKey(r.events.events, KEY, "enqueue").filter((e) => e.merged === "processing");
    expect(merged.length).toBeGreaterThanOrEqual(1);
    expect(passes.length).toBeLessThan(ofKey(r.events.events, KEY, "watch").length);
    expect(r.events.analyzer.summary(KEY)!.quiescent).toBe(true);
  });

  it("watch-drop: after closed and expired watches the scale still arrives; the key converges", async () => {
    const r = await run("watch-drop");
    const update = ofKey(r.events.events, KEY, "write").find(
      (w) => w.verb === "update" && w.fields?.includes("spec.replicas"),
    );
    expect(update).toBeDefined();
    expect(notes(r.events.events).some((n) => n.includes("410 Gone"))).toBe(true);
    // The informers say in the trace what they did: re-watch after the close, re-list after 410.
    const said = notes(r.events.events);
    expect(said).toContainEqual(expect.stringMatching(/^the Foo informer's watch was closed/));
    expect(said).toContainEqual(
      expect.stringMatching(
        /^the Foo informer's watch ended with 410 Gone .* lists every Foo again/,
      ),
    );
    expect(r.events.analyzer.summary(KEY)!.quiescent).toBe(true);
  });

  it("burst (1 worker): passes never overlap; the queue grows; events merge", async () => {
    const r = await run("burst");
    const passes = allPasses(r).sort((a, b) => a.start - b.start);
    for (let i = 1; i < passes.length; i++)
      expect(overlaps(passes[i - 1]!, passes[i]!)).toBe(false);
    const enq = r.events.events.filter((e) => e.stage === "enqueue");
    expect(Math.max(...enq.map((e) => e.len ?? 0))).toBeGreaterThanOrEqual(3);
    expect(enq.some((e) => e.merged === "dirty" || e.merged === "processing")).toBe(true);
    for (const n of BURST_NAMES)
      expect(r.events.analyzer.summary(`default/${n}`)!.quiescent).toBe(true);
  });

  it("burst-4: passes of different keys overlap in time, never two of one key", async () => {
    const r = await run("burst-4");
    const passes = allPasses(r);
    let different = 0;
    for (const a of passes)
      for (const b of passes) {
        if (a === b || !overlaps(a, b)) continue;
        expect(a.key).not.toBe(b.key);
        different++;
      }
    expect(different).toBeGreaterThan(0);
    expect(new Set(passes.map((p) => p.worker)).size).toBeGreaterThan(1);
    for (const n of BURST_NAMES)
      expect(r.events.analyzer.summary(`default/${n}`)!.quiescent).toBe(true);
  });
});
