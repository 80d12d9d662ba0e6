/**
 * The Foo controller against the embedded API server over real HTTP, checked through its trace as
 * packages/trace analyses it (docs/stages.md).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildExcerpt, excerptSpan } from "@loopscope/trace";
import type { PassEndEvent, TraceEvent, WriteEvent } from "@loopscope/trace";
import { PatchStrategy, setHeaderOptions, type CustomObjectsApi } from "@kubernetes/client-node";
import { FOO_CRD } from "@loopscope/apiserver";
import { FOO, startHarness, type Harness } from "./testing/embedded-harness.ts";
import type { Deployment, Foo } from "./types.ts";

const srcDir = dirname(fileURLToPath(import.meta.url));
let h: Harness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

const of = <S extends TraceEvent["stage"]>(
  evs: TraceEvent[],
  stage: S,
  key = "default/example-foo",
) => evs.filter((e): e is Extract<TraceEvent, { stage: S }> => e.stage === stage && e.key === key);

/** Whether the server stores status.lastSyncedAt (a throwaway Foo, written and read back). */
async function serverKeepsLastSyncedAt(co: CustomObjectsApi): Promise<boolean> {
  const where = { ...FOO, namespace: "default" };
  const created = (await co.createNamespacedCustomObject({
    ...where,
    body: {
      apiVersion: "samplecontroller.k8s.io/v1alpha1",
      kind: "Foo",
      metadata: { name: "schema-probe" },
      spec: {},
    },
  })) as Foo;
  const body = {
    ...created,
    status: { availableReplicas: 0, lastSyncedAt: "2026-12-02T00:00:00.000001Z" },
  };
  const written = (await co.replaceNamespacedCustomObjectStatus({
    ...where,
    name: "schema-probe",
    body,
  })) as Foo;
  await co.deleteNamespacedCustomObject({ ...where, name: "schema-probe" });
  return written.status?.lastSyncedAt !== undefined;
}

describe("FooController on the embedded API server", () => {
  it("brings one new Foo to availableReplicas 1; the trace reads like upstream's", async () => {
    // Pods get ready after the first passes' churn, as on a real cluster (sample-controller.md §2.3).
    h = await startHarness({ apiserver: { deploymentReadyDelayMs: 200 } });
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    const foo = (await h.getFoo("example-foo")) as Foo;
    expect(foo.status?.availableReplicas).toBe(1);

    const a = h.analyze();
    const passes = a.passes("default/example-foo");
    const first = passes[0]!;
    expect(first.cause).toBe("external");
    expect(first.changingWrites).toBe(2);
    const firstWrites = first.writeSeqs.map((s) => h!.events[s - 1] as WriteEvent);
    expect(firstWrites.map((w) => [w.verb, w.code])).toEqual([
      ["create", 201],
      ["updateStatus", 200],
    ]);
    expect(firstWrites[1]?.fields).toEqual(["status.availableReplicas"]);
    // Self-triggered (docs/stages.md §2): every trigger is an echo of this controller's write.
    const selfTriggered = passes
      .slice(1)
      .filter((p) => p.triggers.length > 0 && p.triggers.every((t) => t.cause === "self"));
    expect(selfTriggered.length).toBeGreaterThan(0);
    const last = passes[passes.length - 1]!;
    expect(last.changingWrites).toBe(0);
    expect(last.outcome).toBe("synced");
    const summary = a.summary("default/example-foo")!;
    expect(summary.quiescent).toBe(true);
    expect(summary.hotLoop).toBe(false);
    expect(a.findings().filter((f) => f.kind === "hot-loop")).toEqual([]);

    // Every enqueue caused by a watch links to that watch event.
    for (const e of of(h.events, "enqueue").filter((x) => x.cause === "watch")) {
      expect(h.events[(e.causeSeq as number) - 1]?.stage).toBe("watch");
    }
  });

  it("records the real file:line of each probe call", async () => {
    h = await startHarness();
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    const lines = readFileSync(join(srcDir, "foo-controller.ts"), "utf8").split("\n");
    const srcs = new Set(h.events.map((e) => e.src as string));
    expect(srcs.size).toBeGreaterThanOrEqual(7);
    for (const src of srcs) {
      const [file, line] = src.split(":");
      expect(file).toBe("foo-controller.ts");
      expect(lines[Number(line) - 1]).toMatch(/probe\.emit\(/);
    }
    // klog output: the same stages as canonical STAGE lines, plus upstream's pass markers.
    expect(
      h.klog.some((l) =>
        / foo-controller\.ts:\d+\] STAGE\/dequeue key=default\/example-foo len=\d+ worker=\d$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(
      h.klog.some((l) => l.includes('"Successfully synced" objectName="default/example-foo"')),
    ).toBe(true);
  });

  it("hot-loop lesson: every pass writes a fresh status.lastSyncedAt and triggers the next", async () => {
    let keeps = false;
    h = await startHarness({
      before: async ({ co }) => void (keeps = await serverKeepsLastSyncedAt(co)),
    });
    // The lesson needs the Foo CRD to declare status.lastSyncedAt (loopscope's does, and the
    // embedded server starts with it); a CRD that does not prunes it (the next test).
    expect(keeps, "the embedded server's Foo CRD declares status.lastSyncedAt").toBe(true);
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    // As on the dashboard: switch the bug on for a settled Foo, then touch the Foo once.
    h.controller.setLesson("hotLoopBug", true);
    const mark = of(h.events, "dequeue").length;
    await h.co.patchNamespacedCustomObject(
      {
        ...FOO,
        namespace: "default",
        name: "example-foo",
        body: { metadata: { annotations: { touched: "1" } } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await h.waitFor("a dozen more passes", () => of(h!.events, "dequeue").length >= mark + 12);
    h.controller.setLesson("hotLoopBug", false);
    const a = h.analyze();
    const loop = a.findings().find((f) => f.kind === "hot-loop" && f.key === "default/example-foo");
    expect(loop?.fields).toEqual(["status.lastSyncedAt"]);
    expect(a.summary("default/example-foo")?.hotLoop).toBe(true);
    // Switching the lesson off ends the loop.
    await h.converged(["example-foo"]);
  });

  it("hot-loop lesson on a Foo CRD that prunes status.lastSyncedAt: said once, as a W note", async () => {
    h = await startHarness();
    // sample-controller's own CRD: its status declares availableReplicas alone.
    const crds = `${h.api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
    const one = `${crds}/${FOO_CRD.metadata.name}`;
    expect((await fetch(one, { method: "DELETE" })).status).toBe(200);
    await h.waitFor("the CRD gone", async () => (await fetch(one)).status === 404);
    const upstream = structuredClone(FOO_CRD);
    (
      upstream.spec.versions[0]!.schema.openAPIV3Schema as { properties: { status: object } }
    ).properties.status = {
      type: "object",
      properties: { availableReplicas: { type: "integer" } },
    };
    const made = await fetch(crds, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(upstream),
    });
    expect(made.status).toBe(201);
    h.controller.setLesson("hotLoopBug", true);
    await h.waitFor("the Foo API served again", async () => {
      try {
        await h!.createFoo("example-foo");
        return true;
      } catch {
        return false;
      }
    });
    const pruned = () =>
      h!.events.filter(
        (e) =>
          e.stage === "note" && e.level === "W" && e.text.includes("pruned status.lastSyncedAt"),
      );
    await h.waitFor("the W note", () => pruned().length > 0);
    await h.converged(["example-foo"]);
    expect(pruned()).toHaveLength(1);
    expect(pruned()[0]).toMatchObject({ key: "default/example-foo" });
    expect(h.analyze().summary("default/example-foo")?.hotLoop).toBe(false);
    expect(h.klog.filter((l) => l.includes("pruned status.lastSyncedAt"))).toHaveLength(1);
  });

  it("idempotent-status lesson: passes that would not change the status write nothing", async () => {
    h = await startHarness({ controller: { lessons: { idempotentStatus: true } } });
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    const statusWrites = of(h.events, "write").filter(
      (w) => w.verb === "updateStatus" && w.code === 200,
    );
    expect(statusWrites.length).toBe(2); // availableReplicas 0, then 1
    expect(statusWrites.every((w) => w.changed)).toBe(true);
    expect(of(h.events, "done").length).toBeGreaterThan(2);
  });

  it("a Deployment of the same name not owned by the Foo: ErrResourceExists, exponential retries", async () => {
    h = await startHarness({
      before: async ({ apps }) => {
        await apps.createNamespacedDeployment({
          namespace: "default",
          body: {
            metadata: { name: "example-foo" },
            spec: {
              replicas: 1,
              selector: { matchLabels: { app: "other" } },
              template: {
                metadata: { labels: { app: "other" } },
                spec: { containers: [{ name: "c", image: "nginx" }] },
              },
            },
          } as Deployment,
        });
      },
    });
    await h.createFoo("example-foo");
    await h.waitFor(
      "four failed passes",
      () => of(h!.events, "done").filter((d) => d.outcome === "requeued").length >= 4,
    );
    const requeued = of(h.events, "done").filter(
      (d): d is PassEndEvent => d.outcome === "requeued",
    );
    expect(requeued[0]?.error).toBe(
      'Resource "example-foo" already exists and is not managed by Foo',
    );
    expect(requeued.slice(0, 4).map((d) => d.delayMs)).toEqual([5, 10, 20, 40]);
    const retries = of(h.events, "enqueue").filter((e) => e.cause === "retry");
    expect(retries.length).toBeGreaterThanOrEqual(3);
    expect(retries[0]?.delayMs).toBe(5);
    expect(of(h.events, "write")).toEqual([]); // never touched the foreign Deployment
    expect(
      h
        .analyze()
        .findings()
        .some((f) => f.kind === "retry" && f.key === "default/example-foo"),
    ).toBe(true);
    expect(of(h.events, "note")[0]?.text).toBe(
      'ErrResourceExists: Resource "example-foo" already exists and is not managed by Foo',
    );
    // Deleting the Foo: the next retry finds it gone and the pass ends synced (upstream returns nil).
    await h.co.deleteNamespacedCustomObject({ ...FOO, namespace: "default", name: "example-foo" });
    await h.waitFor("a pass that finds the Foo gone", () =>
      of(h!.events, "read").some((r) => r.found === false),
    );
    await h.waitFor("its end", () => of(h!.events, "done").at(-1)?.outcome === "synced");
    expect(
      h
        .analyze()
        .findings()
        .some((f) => f.kind === "not-found" && f.key === "default/example-foo"),
    ).toBe(true);
    // The Warning event reaches the API asynchronously.
    await h.waitFor("the ErrResourceExists event", async () => {
      const list = await h!.core.listNamespacedEvent({ namespace: "default" });
      return list.items.some(
        (e) => e.reason === "ErrResourceExists" && e.involvedObject.name === "example-foo",
      );
    });
  });

  it("recreates the Deployment when it is deleted", async () => {
    h = await startHarness();
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    const before = await h.apps.readNamespacedDeployment({
      namespace: "default",
      name: "example-foo",
    });
    const mark = h.events.length;
    await h.apps.deleteNamespacedDeployment({ namespace: "default", name: "example-foo" });
    await h.waitFor("a new Deployment", async () => {
      try {
        const d = await h!.apps.readNamespacedDeployment({
          namespace: "default",
          name: "example-foo",
        });
        return d.metadata?.uid !== before.metadata?.uid;
      } catch {
        return false;
      }
    });
    await h.converged(["example-foo"]);
    const after = h.events.slice(mark);
    const del = after.find(
      (e) => e.stage === "watch" && e.kind === "Deployment" && e.event === "delete",
    );
    expect(del?.key).toBe("default/example-foo");
    const create = after.find((e) => e.stage === "write" && e.verb === "create");
    expect(create).toMatchObject({ code: 201, changed: true });
    expect((create as TraceEvent).seq).toBeGreaterThan((del as TraceEvent).seq);
  });

  it("a foreground delete (kubectl delete --cascade=foreground) ends: the Foo goes, no Deployment stays", async () => {
    // The collector at the live dashboard's pace: the controller recreates the deleted Deployment
    // long before a 20 ms check, so the Foo's finalizer must not wait for a moment with no dependent.
    h = await startHarness({ apiserver: { garbageCollectionDelayMs: 20 } });
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    await h.co.deleteNamespacedCustomObject({
      ...FOO,
      namespace: "default",
      name: "example-foo",
      propagationPolicy: "Foreground",
    });
    await h.waitFor(
      "the Foo to go",
      async () => (await h!.getFoo("example-foo")) === undefined,
      5000,
    );
    await h.waitFor(
      "no Deployment",
      async () =>
        (await h!.apps.listNamespacedDeployment({ namespace: "default" })).items.length === 0,
      5000,
    );
  });

  it("scales the Deployment when spec.replicas changes (update with the changed field)", async () => {
    h = await startHarness();
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    await h.co.patchNamespacedCustomObject(
      {
        group: "samplecontroller.k8s.io",
        version: "v1alpha1",
        plural: "foos",
        namespace: "default",
        name: "example-foo",
        body: { spec: { replicas: 3 } },
      },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    );
    await h.converged(["example-foo"]);
    const update = of(h.events, "write").find((w) => w.verb === "update");
    expect(update).toMatchObject({ code: 200, changed: true, fields: ["spec.replicas"] });
    expect((await h.getFoo("example-foo"))?.status?.availableReplicas).toBe(3);
  });

  it("a competing writer causes 409s; the controller retries and converges", async () => {
    h = await startHarness({ apiserver: { deploymentReadyDelayMs: 300 } });
    await h.createFoo("example-foo");
    h.api.faults.competingWriter.start({
      kind: "Foo",
      namespace: "default",
      name: "example-foo",
      intervalMs: 2,
    });
    await h.waitFor("a 409", () => of(h!.events, "write").some((w) => w.code === 409));
    h.api.faults.competingWriter.stop();
    await h.converged(["example-foo"]);
    const conflict = of(h.events, "write").find((w) => w.code === 409)!;
    expect(conflict.reason).toBe("Conflict");
    const afterConflict = h.events.slice(conflict.seq);
    expect(afterConflict.some((e) => e.stage === "enqueue" && e.cause === "retry")).toBe(true);
    expect(h.analyze().summary("default/example-foo")?.conflicts).toBeGreaterThan(0);
  });

  it("Foo gone and missing deploymentName: passes end synced without writes", async () => {
    h = await startHarness();
    await h.createFoo("no-name", 1, "");
    await h.waitFor(
      "a pass of default/no-name",
      () => of(h!.events, "done", "default/no-name").length >= 1,
    );
    expect(of(h.events, "done", "default/no-name")[0]?.outcome).toBe("synced");
    expect(of(h.events, "write", "default/no-name")).toEqual([]);
    expect(h.klog.some((l) => l.includes('"Deployment name missing from object reference"'))).toBe(
      true,
    );

    // A key whose Foo is gone: upstream's lister names the resource "foo" (Resource("foo")).
    h.controller.queue.add("default/ghost");
    await h.waitFor(
      "the pass of default/ghost",
      () => of(h!.events, "done", "default/ghost").length >= 1,
    );
    expect(of(h.events, "done", "default/ghost")[0]?.outcome).toBe("synced");
    expect(h.klog.find((l) => l.includes("no longer exists"))).toContain(
      'err="foo.samplecontroller.k8s.io \\"ghost\\" not found"',
    );
  });

  it("resync re-delivers Foos with equal resourceVersions; Deployment resyncs are dropped", async () => {
    h = await startHarness({ controller: { resyncMs: 50 } });
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    // A resync fires every 50 ms, so a snapshot can land inside a pass (open ⇒ not quiescent), or
    // (on a busy machine) after two resync adds the worker has not taken yet; wait for a resync
    // pass and a moment between passes rather than asserting on an arbitrary snapshot.
    await h.waitFor("two resync adds, a resync pass, then a quiet moment", () => {
      const analysis = h!.analyze();
      return (
        of(h!.events, "enqueue").filter((e) => e.cause === "resync").length >= 2 &&
        analysis.passes("default/example-foo").some((p) => p.cause === "resync") &&
        analysis.summary("default/example-foo")?.quiescent === true
      );
    });
    const resyncWatch = of(h.events, "watch").filter(
      (w) => w.kind === "Foo" && w.event === "update" && w.rv === w.oldRv,
    );
    expect(resyncWatch.length).toBeGreaterThanOrEqual(2);
    expect(of(h.events, "watch").some((w) => w.kind === "Deployment" && w.rv === w.oldRv)).toBe(
      false,
    );
    expect(h.analyze().summary("default/example-foo")?.passCauses.resync).toBeGreaterThan(0);
  });

  it("stop: the pass a worker holds finishes; keys still queued get no pass, as upstream's exit leaves them", async () => {
    h = await startHarness({ controller: { workers: 1 } });
    h.api.faults.setLatency("create", 200);
    for (const n of ["a", "b", "c", "d"]) await h.createFoo(n);
    await h.waitFor("keys queued behind the one worker", () => h!.controller.queue.len() >= 2);
    const mark = h.events.length;
    await h.controller.stop();
    const after = h.events.slice(mark);
    const started = after.filter((e) => e.stage === "dequeue");
    expect(started).toEqual([]);
    // The held pass ended (its create answered) and nothing else ran.
    expect(after.filter((e) => e.stage === "done")).toHaveLength(1);
    h.api.faults.setLatency("create", 0);
  });

  it("a Foo that existed before the controller started is an add of the initial list, not a creation", async () => {
    h = await startHarness({
      before: async ({ co }) => {
        await co.createNamespacedCustomObject({
          ...FOO,
          namespace: "default",
          body: {
            apiVersion: "samplecontroller.k8s.io/v1alpha1",
            kind: "Foo",
            metadata: { name: "before" },
            spec: { deploymentName: "before", replicas: 1 },
          },
        });
      },
    });
    await h.createFoo("after");
    await h.converged(["before", "after"]);
    const add = (key: string) =>
      of(h!.events, "watch", key).filter((w) => w.kind === "Foo" && w.event === "add");
    expect(add("default/before").map((w) => w.initial)).toEqual([true]);
    expect(add("default/after").map((w) => w.initial)).toEqual([undefined]);
    // Only that one: the Deployments came after the start, and so did every other event.
    const initial = h.events.filter((e) => e.stage === "watch" && e.initial !== undefined);
    expect(initial.map((e) => e.key)).toEqual(["default/before"]);
    expect(h.klog.filter((l) => l.includes("initial=true"))).toEqual([
      expect.stringMatching(/STAGE\/watch kind=Foo event=add key=default\/before .* initial=true$/),
    ]);
    // The analysis counts from its listing: the first pass is the add's (external), no creation.
    const a = h.analyze();
    expect(a.summary("default/before")?.listed).toBe(true);
    expect(a.summary("default/after")?.listed).toBe(false);
    expect(a.passes("default/before")[0]?.cause).toBe("external");
    expect(excerptSpan(buildExcerpt(h.events, { key: "default/before" })!)).toBe(
      "from the informer's initial list (it existed before the run) to quiescent",
    );
    expect(excerptSpan(buildExcerpt(h.events, { key: "default/after" })!)).toBe(
      "from creation to quiescent",
    );
  });
});
