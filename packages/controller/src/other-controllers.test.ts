/**
 * Another controller reconciling the same Foos, noticed through the Events it records: two
 * controllers on one embedded API server over real HTTP, one after another, and a Go
 * sample-controller's Event as it writes it (source.component only).
 *
 * "Once" and "never" are checked by what comes after: a later Event from a made-up controller is
 * noticed only once every write before it has been through the watch (one watch, in the
 * cluster's order), so when its warning is there, any warning those writes would have caused
 * is there too.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CoreV1Api } from "@kubernetes/client-node";
import {
  Analyzer,
  readTraceText,
  type OtherController,
  type TraceEvent,
  type UnsequencedEvent,
} from "@loopscope/trace";
import { FooController } from "./foo-controller.ts";
import { FOO, startHarness, type Harness } from "./testing/embedded-harness.ts";

let h: Harness | undefined;
const extra: FooController[] = [];

afterEach(async () => {
  for (const c of extra.splice(0)) await c.stop();
  await h?.stop();
  h = undefined;
});

/** A controller on the harness's server, with its warnings and trace. */
async function another(h: Harness) {
  const warned: OtherController[] = [];
  const events: UnsequencedEvent[] = [];
  const controller = new FooController({
    kubeConfig: h.kc,
    resyncMs: 0,
    informerBackoffMs: { initial: 20, max: 200 },
    probe: (e) => void events.push(e),
    onOtherController: (o) => warned.push(o),
  });
  extra.push(controller);
  await controller.run();
  return { controller, warned, events };
}

/** An Event on a Foo as client-go's recorder writes it for `component` (no instance). */
async function recordAs(
  core: CoreV1Api,
  component: string,
  opts: { name?: string; reason?: string; at?: Date } = {},
) {
  const at = opts.at ?? new Date();
  await core.createNamespacedEvent({
    namespace: "default",
    body: {
      metadata: { name: `${opts.name ?? "example-foo"}.${component}`, namespace: "default" },
      involvedObject: {
        apiVersion: "samplecontroller.k8s.io/v1alpha1",
        kind: "Foo",
        namespace: "default",
        name: opts.name ?? "example-foo",
      },
      type: "Normal",
      reason: opts.reason ?? "Synced",
      message: "Foo synced successfully",
      count: 1,
      firstTimestamp: at,
      lastTimestamp: at,
      source: { component },
      reportingComponent: component,
    },
  });
}

const names = (warned: OtherController[]) => warned.map((o) => o.name);

describe("another controller reconciling the same Foos", () => {
  it("two controllers on one cluster each warn once, naming the other", async () => {
    const mine: OtherController[] = [];
    h = await startHarness({ controller: { onOtherController: (o) => mine.push(o) } });
    const harness = h;
    const b = await another(harness);
    expect(b.controller.instance).not.toBe(harness.controller.instance);

    await harness.createFoo("example-foo");
    await harness.waitFor("both to warn", () => mine.length > 0 && b.warned.length > 0);
    // More passes of both, each with its Events (a count bumped is a write as well).
    const foo = (await harness.getFoo("example-foo"))!;
    await harness.co.replaceNamespacedCustomObject({
      ...FOO,
      namespace: "default",
      name: "example-foo",
      body: { ...foo, spec: { ...foo.spec, replicas: 2 } },
    });
    await harness.waitFor("status 2", async () => {
      const foo = await harness.getFoo("example-foo");
      return foo?.status?.availableReplicas === 2;
    });
    await recordAs(harness.core, "flush-controller");
    await harness.waitFor("the flush", () => mine.length > 1 && b.warned.length > 1);

    expect(names(mine)).toEqual([b.controller.instance, "flush-controller"]);
    expect(names(b.warned)).toEqual([harness.controller.instance, "flush-controller"]);
    expect(mine[0]).toMatchObject({ reason: "Synced", key: "default/example-foo" });

    // In the trace: a W note about the Foo, which the analysis makes its finding.
    const notes = harness.events.filter(
      (e): e is Extract<TraceEvent, { stage: "note" }> =>
        e.stage === "note" && e.text.includes(b.controller.instance),
    );
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ key: "default/example-foo", level: "W" });
    expect(notes[0]?.text).toMatch(
      /^another controller is also reconciling Foos on this cluster: loopscope-\d+(-\d+)?@\S+ \(Event Synced on default\/example-foo at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\. Passes it causes show as external; stop it for a true picture\.$/,
    );
    const findings = harness.analyze().findings();
    expect(findings.filter((f) => f.kind === "other-controller").map((f) => f.key)).toEqual([
      "default/example-foo",
      "default/example-foo",
    ]);
    // The klog line too: a replay of the log has the finding.
    const replay = new Analyzer();
    replay.pushAll(readTraceText(harness.klog.join("\n") + "\n").events);
    expect(
      replay
        .findings()
        .filter((f) => f.kind === "other-controller")
        .map((f) => [f.key, f.detail.includes(b.controller.instance)]),
    ).toEqual([
      ["default/example-foo", true],
      ["default/example-foo", false],
    ]);
  });

  it("a controller alone does not warn, though a stopped one's Events remain", async () => {
    const first: OtherController[] = [];
    h = await startHarness({ controller: { onOtherController: (o) => first.push(o) } });
    await h.createFoo("example-foo");
    await h.converged(["example-foo"]);
    await h.controller.stop();
    const left = await h.core.listNamespacedEvent({ namespace: "default" });
    expect(left.items.some((e) => e.reportingInstance === h!.controller.instance)).toBe(true);

    const b = await another(h);
    // Its own first pass of the Foo records its own Event; then anything else's write is news.
    await h.waitFor("its pass", () => b.events.some((e) => e.stage === "done"));
    await recordAs(h.core, "flush-controller");
    await h.waitFor("the flush", () => b.warned.length > 0);
    expect(names(b.warned)).toEqual(["flush-controller"]);
    expect(first).toEqual([]);
  });

  it("the Go sample-controller's Event (source.component only) is another controller", async () => {
    const mine: OtherController[] = [];
    h = await startHarness({ controller: { onOtherController: (o) => mine.push(o) } });
    const harness = h;
    await harness.createFoo("example-foo");
    await harness.converged(["example-foo"]);

    const before = harness.events.length;
    // Not a controller's pass: an Event with another reason.
    await recordAs(harness.core, "someone", { reason: "Scaled" });
    await recordAs(harness.core, "sample-controller", {
      at: new Date("2026-12-06T23:00:00Z"),
    });
    await harness.waitFor("the warning", () => mine.length > 0);
    expect(mine).toEqual([
      {
        name: "sample-controller",
        reason: "Synced",
        key: "default/example-foo",
        at: "2026-12-06T23:00:00Z",
      },
    ]);
    // Watching Events is no stage of the controller's: its trace gained the note, and no watch
    // event of an Event (a late Deployment status step may still come, and is no concern here).
    const after = harness.events.slice(before);
    expect(after.filter((e) => e.stage === "note")).toHaveLength(1);
    expect(after.filter((e) => e.stage === "watch" && e.kind === "Event")).toEqual([]);
  });

  it("a cluster that forbids listing Events is told about once, and not asked again", async () => {
    const mine: OtherController[] = [];
    h = await startHarness({ controller: { onOtherController: (o) => mine.push(o) } });
    // The next controller's three lists (Foo, Deployment, Event) are refused; the first two are
    // tried again and succeed.
    h.api.faults.failNext(3, 403, ["list"]);
    const b = await another(h);
    const forbidden = (e: UnsequencedEvent) =>
      e.stage === "note" && e.text.startsWith("this controller may not list Events");
    expect(b.events.filter(forbidden)).toHaveLength(1);
    // Foo, Deployment and Event for the first controller; Foo and Deployment for the second.
    expect(h.api.activeWatches()).toBe(5);

    await recordAs(h.core, "sample-controller");
    await h.waitFor("the first controller's warning", () => mine.length > 0);
    expect(b.warned).toEqual([]);
    expect(b.events.filter(forbidden)).toHaveLength(1);
  });

  it("an Event's clock is not ours: a skewed controller's write is noticed all the same", async () => {
    const mine: OtherController[] = [];
    h = await startHarness({ controller: { onOtherController: (o) => mine.push(o) } });
    const harness = h;
    // Its clock an hour behind ours: by timestamps, an Event from before this controller started.
    await recordAs(harness.core, "sample-controller", {
      at: new Date(Date.now() - 3_600_000),
    });
    await harness.waitFor("the warning", () => mine.length > 0);
    expect(names(mine)).toEqual(["sample-controller"]);
  });
});
