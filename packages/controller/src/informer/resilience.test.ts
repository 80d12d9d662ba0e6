/**
 * The informer wrapper against the embedded API server's fault injection: whatever happens to the
 * watch (closed, 410 Expired, 500s, the server restarting), the controller recovers and every Foo
 * converges; the Foo CRD deleted and created again (404s until it is back, then one recovery).
 * Also: our own stop is not mistaken for a failure, and nothing is started twice.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FOO_CRD } from "@loopscope/apiserver";
import type { InformerError, InformerRecovery } from "./resilient-informer.ts";
import { startHarness, type Harness } from "../testing/embedded-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe("informers under faults", () => {
  it("recover from closed watches, 410, 500s and a server restart; every Foo converges", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({ controller: { onInformerError: (e) => errors.push(e) } });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    // One per informer: Foo, Deployment, and Event (other-controllers.ts).
    expect(h.api.activeWatches()).toBe(3);

    // 1. The server ends every watch cleanly: client-node re-watches from its last RV.
    h.api.faults.closeAllWatches();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);

    // 2. 410 Expired on the next watch: client-node re-lists.
    h.api.faults.expireNextWatch();
    h.api.faults.closeAllWatches();
    await h.createFoo("foo-c");
    await h.converged(["foo-a", "foo-b", "foo-c"]);

    // 3. 500s on list and watch: client-node stops; the wrapper restarts it with backoff.
    h.api.faults.failNext(4, 500, ["list", "watch"]);
    h.api.faults.closeAllWatches();
    await h.waitFor("the failures to be reported", () => errors.length >= 2);
    await h.createFoo("foo-d");
    await h.converged(["foo-a", "foo-b", "foo-c", "foo-d"]);
    expect(errors.every((e) => e.retryInMs > 0)).toBe(true);
    expect(errors.some((e) => (e.error as { statusCode?: number }).statusCode === 500)).toBe(true);

    // 4. The API server restarts (connections dropped, objects kept).
    await h.api.restart();
    await h.createFoo("foo-e");
    await h.converged(["foo-a", "foo-b", "foo-c", "foo-d", "foo-e"]);

    // Recovered, not duplicated: one watch per informer.
    await h.waitFor("three watches", () => h!.api.activeWatches() === 3);
    expect(h.controller.foos.hasSynced() && h.controller.deployments.hasSynced()).toBe(true);
    expect(h.klog.some((l) => l.startsWith("E") && l.includes('"Failed to'))).toBe(true);
    // No Foo existed before the start: an add of a re-list (after the 410, the 500s, the
    // restart) is of an object created meanwhile, never one of the initial list.
    expect(h.events.filter((e) => e.stage === "watch" && e.initial !== undefined)).toEqual([]);
  });

  it("a re-list after 410 Gone re-delivers every Foo, changed or not: a pass each, as under client-go", async () => {
    h = await startHarness();
    await h.createFoo("a");
    await h.createFoo("b");
    await h.converged(["a", "b"]);
    const mark = h.events.length;
    h.api.faults.expireNextWatch();
    h.api.faults.closeAllWatches();
    await h.waitFor("a pass of each Foo after the re-list", () =>
      ["default/a", "default/b"].every((key) =>
        h!.events.slice(mark).some((e) => e.stage === "done" && e.key === key),
      ),
    );
    const relisted = h.events
      .slice(mark)
      .filter((e) => e.stage === "watch" && e.kind === "Foo" && e.event === "update");
    expect(relisted.map((e) => e.key).sort()).toEqual(["default/a", "default/b"]);
    // Unchanged: the same resourceVersion, as a resync's. Deployments' are dropped by the handler.
    for (const e of relisted) expect(e.stage === "watch" && e.rv === e.oldRv).toBe(true);
    await h.converged(["a", "b"]);
  });

  it("the Foo CRD deleted and created again: 404s, one recovery, and a Foo created after converges", async () => {
    const errors: InformerError[] = [];
    const recoveries: InformerRecovery[] = [];
    h = await startHarness({
      controller: {
        onInformerError: (e) => errors.push(e),
        onInformerRecovered: (e) => recoveries.push(e),
        informerBackoffMs: { initial: 20, max: 200 },
      },
    });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    const crd = `${h.api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`;
    expect((await fetch(`${crd}/${FOO_CRD.metadata.name}`, { method: "DELETE" })).status).toBe(200);
    // Its Foos go with it (the informer hears each DELETED), then its watch ends; every retry 404s.
    await h.waitFor("the Foo to leave the lister", () => h!.controller.foos.list().length === 0);
    await h.waitFor("several 404s", () => errors.filter((e) => statusOf(e) === 404).length >= 3);
    expect(errors.every((e) => e.kind.endsWith(" Foo"))).toBe(true);
    expect(recoveries).toEqual([]);

    const created = await fetch(crd, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(FOO_CRD),
    });
    expect(created.status).toBe(201);
    await h.waitFor("the recovery", () => recoveries.length > 0);
    expect(recoveries).toEqual([{ kind: "Foo", after: expect.any(Number) as unknown as number }]);
    expect(recoveries[0]!.after).toBeGreaterThanOrEqual(3);
    await h.createFoo("foo-b");
    await h.converged(["foo-b"]);
    expect(recoveries).toHaveLength(1);
  });

  it("stop() is not a failure: no error reported, no restart, no watch left open", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({ controller: { onInformerError: (e) => errors.push(e) } });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    const started = h.controller.foos.start();
    expect(h.controller.foos.start()).toBe(started); // no double start
    await h.controller.stop();
    await h.waitFor("watches to close", () => h!.api.activeWatches() === 0);
    const count = h.events.length;
    await h.createFoo("foo-b");
    await new Promise((r) => setTimeout(r, 100));
    expect(errors).toEqual([]);
    expect(h.events.length).toBe(count);
    expect(h.api.activeWatches()).toBe(0);
  });

  it("clusterAnswersAgain() replaces the open watches at once, says so in the trace, and reports no failure", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({ controller: { onInformerError: (e) => errors.push(e) } });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    const notesBefore = h.events.filter((e) => e.stage === "note").length;
    h.controller.clusterAnswersAgain();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
    await h.waitFor("one watch per informer", () => h!.api.activeWatches() === 3);
    expect(errors).toEqual([]);
    const notes = h.events.filter((e) => e.stage === "note").slice(notesBefore);
    for (const kind of ["Foo", "Deployment"]) {
      expect(notes.map((n) => n.text)).toContainEqual(
        expect.stringContaining(`the ${kind} informer's watch is replaced`),
      );
    }
  });

  it("clusterAnswersAgain() ends a backoff wait: the informers try again now", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({
      controller: {
        onInformerError: (e) => errors.push(e),
        // Far beyond the waits below: only clusterAnswersAgain() brings the informers back in time.
        informerBackoffMs: { initial: 600_000, max: 600_000 },
      },
    });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    // Three watches open again, in no set order: each fails (the Event informer's quietly).
    h.api.faults.failNext(3, 500, ["watch"]);
    h.api.faults.closeAllWatches();
    await h.waitFor("both informers to fail", () => errors.length === 2);
    expect(errors.every((e) => e.retryInMs === 600_000)).toBe(true);
    h.controller.clusterAnswersAgain();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
    expect(errors).toHaveLength(2);
  });

  /** Creates `name` with its status update left unanswered (the server holds it 10 min). */
  async function statusUpdateWaiting(name: string): Promise<void> {
    h!.api.faults.setLatency("update", 600_000);
    await h!.createFoo(name);
    const key = `default/${name}`;
    await h!.waitFor("the Deployment's create", () =>
      h!.events.some((e) => e.key === key && e.stage === "write" && e.verb === "create"),
    );
    // Sent a few microtasks after the create's answer; this leaves it well on its way.
    await new Promise((r) => setTimeout(r, 300));
  }

  it("clusterAnswersAgain() abandons a call left waiting across the outage: its pass fails, says why, and is retried", async () => {
    h = await startHarness();
    await statusUpdateWaiting("foo-a");
    h.controller.clusterAnswersAgain();
    h.api.faults.setLatency("update", 0);
    await h.converged(["foo-a"]);
    const abandoned = h.events.find((e) => e.stage === "write" && e.reason === "Abandoned");
    expect(abandoned).toMatchObject({ key: "default/foo-a", verb: "updateStatus" });
    const done = h.events.find((e) => e.stage === "done" && e.seq > abandoned!.seq);
    expect(done).toMatchObject({
      outcome: "requeued",
      error:
        "no answer came before the cluster's outage ended, and its connection may be dead: abandoned",
    });
  });

  /**
   * Ends the watches, one of the new ones with 410 Gone, and holds the list that follows 10 min
   * on the server: that informer is deaf until the list is given up.
   */
  async function listWaiting(): Promise<void> {
    await h!.createFoo("foo-a");
    await h!.converged(["foo-a"]);
    h!.api.faults.setLatency("list", 600_000);
    h!.api.faults.expireNextWatch();
    h!.api.faults.closeAllWatches();
    await h!.waitFor("a re-list", () =>
      h!.events.some((e) => e.stage === "note" && e.text.includes("410 Gone")),
    );
    await new Promise((r) => setTimeout(r, 300));
  }

  it("clusterAnswersAgain() abandons a list left waiting across the outage: the informer lists again", async () => {
    h = await startHarness();
    await listWaiting();
    h.api.faults.setLatency("list", 0);
    h.controller.clusterAnswersAgain();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
    // Listed again at once, not after a backoff, and said so.
    expect(h.events.map((e) => (e.stage === "note" ? e.text : ""))).toContainEqual(
      expect.stringMatching(/^the (Foo|Deployment) informer's list is given up \(sent before/),
    );
  });

  it("stop() does not wait for good on a call that gets no answer: it is abandoned after the grace", async () => {
    h = await startHarness();
    await statusUpdateWaiting("foo-a");
    await h.controller.stop();
    // The pass that waited, and any the queue still held (a key re-added while it ran): each
    // call fails, at once once the grace is over, and the stop ends.
    const first = h.events.findIndex((e) => e.stage === "write" && e.reason === "Abandoned");
    expect(h.events[first]).toMatchObject({ key: "default/foo-a", verb: "updateStatus" });
    const ends = h.events.slice(first).filter((e) => e.stage === "done");
    expect(ends.length).toBeGreaterThan(0);
    for (const done of ends)
      expect(done).toMatchObject({
        outcome: "dropped",
        error: "the controller is stopping, and no answer came within 3 s: abandoned",
      });
  });

  it("stop() does not wait for good on a list that gets no answer", async () => {
    h = await startHarness();
    await listWaiting();
    await h.controller.stop();
    expect(h.controller.foos.hasSynced()).toBe(true);
  });

  it("clusterAnswersAgain() replaces a watch still waiting for its answer: the informers watch again", async () => {
    h = await startHarness();
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    // The watches end, and the server holds the new ones' answers 10 min: client-node has no
    // request to abort until an answer begins, so only ReflectorWatch can give them up.
    h.api.faults.setLatency("watch", 600_000);
    h.api.faults.closeAllWatches();
    await new Promise((r) => setTimeout(r, 500));
    h.api.faults.setLatency("watch", 0);
    h.controller.clusterAnswersAgain();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
  });

  it("stop() does not wait for a watch still waiting for its answer", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({ controller: { onInformerError: (e) => errors.push(e) } });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    // Both watches fail; the informers restart after their backoff, and the new watches are held.
    // Three watches open again, in no set order: each fails (the Event informer's quietly).
    h.api.faults.failNext(3, 500, ["watch"]);
    h.api.faults.closeAllWatches();
    await h.waitFor("both informers to fail", () => errors.length === 2);
    h.api.faults.setLatency("watch", 600_000);
    await new Promise((r) => setTimeout(r, 1000));
    await h.controller.stop();
    h.api.faults.setLatency("watch", 0);
  });

  it("a watch the server never ends (dead without a word) is cut after its timeout and replaced", async () => {
    const errors: InformerError[] = [];
    h = await startHarness({
      controller: { onInformerError: (e) => errors.push(e), watchTimeoutSeconds: () => 1 },
    });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    h.api.faults.silenceAllWatches();
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
    expect(errors).toEqual([]);
    const notes = h.events.flatMap((e) => (e.stage === "note" ? [e.text] : []));
    for (const kind of ["Foo", "Deployment"]) {
      expect(notes).toContainEqual(
        expect.stringContaining(
          `the ${kind} informer's watch is replaced (the server did not end it`,
        ),
      );
    }
  });

  it("a watch the server ends at its timeout is renewed quietly, as client-go's reflector renews it", async () => {
    h = await startHarness({ controller: { watchTimeoutSeconds: () => 1 } });
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    const started = h.api.watchesStarted();
    await h.waitFor(
      "each informer to watch anew twice",
      () => h!.api.watchesStarted() >= started + 6,
    );
    await h.createFoo("foo-b");
    await h.converged(["foo-a", "foo-b"]);
    await h.waitFor("one watch per informer", () => h!.api.activeWatches() === 3);
    expect(h.events.filter((e) => e.stage === "note")).toEqual([]);
  });

  it("keeps the lister in step with adds, updates and deletes", async () => {
    h = await startHarness();
    await h.createFoo("foo-a");
    await h.converged(["foo-a"]);
    expect(h.controller.foos.get("default", "foo-a")?.status?.availableReplicas).toBe(1);
    expect(h.controller.deployments.list("default").map((d) => d.metadata?.name)).toEqual([
      "foo-a",
    ]);
    await h.co.deleteNamespacedCustomObject({
      group: "samplecontroller.k8s.io",
      version: "v1alpha1",
      plural: "foos",
      namespace: "default",
      name: "foo-a",
    });
    await h.waitFor(
      "the Foo and its Deployment to leave the caches",
      () =>
        h!.controller.foos.get("default", "foo-a") === undefined &&
        h!.controller.deployments.list().length === 0,
    );
    // The garbage-collected Deployment's delete resolves to no Foo: an orphan, key "".
    expect(
      h.events.some(
        (e) =>
          e.stage === "watch" && e.kind === "Deployment" && e.event === "delete" && e.key === "",
      ),
    ).toBe(true);
  });
});

/** A failed list's or watch's HTTP status (client-node: `code`, its Watch: `statusCode`). */
function statusOf(e: InformerError): number | undefined {
  const err = e.error as { code?: unknown; statusCode?: unknown };
  return typeof err.code === "number"
    ? err.code
    : typeof err.statusCode === "number"
      ? err.statusCode
      : undefined;
}
