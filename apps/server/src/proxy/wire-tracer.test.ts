import { describe, expect, it } from "vitest";
import { Analyzer, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";
import { parseApiRequest } from "./api-path.ts";
import { WireTracer, type WireTracerOptions } from "./wire-tracer.ts";
import type { ObjectMeta, WireObservation } from "./wire.ts";

const FOO = "samplecontroller.k8s.io/Foo";
const fooUid = "uid-foo";
const foo = (rv: string): ObjectMeta => ({
  group: "samplecontroller.k8s.io",
  kind: "Foo",
  namespace: "default",
  name: "example-foo",
  uid: fooUid,
  rv,
});
const deploy = (rv: string): ObjectMeta => ({
  group: "apps",
  kind: "Deployment",
  namespace: "default",
  name: "example-foo",
  uid: "uid-deploy",
  rv,
  owner: { group: "samplecontroller.k8s.io", kind: "Foo", name: "example-foo", uid: fooUid },
});
const FOOS = "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/default/foos";
const DEPLOYS = "/apis/apps/v1/namespaces/default/deployments";

const ms = (t: number) => 1_000_000_000_000 + t * 1000;
const watch = (t: number, event: "ADDED" | "MODIFIED" | "DELETED", object: ObjectMeta) =>
  ({ type: "watch", ts: ms(t), event, object }) as WireObservation;
const write = (
  t: number,
  method: string,
  url: string,
  code: number,
  object?: ObjectMeta,
  extra: Partial<Extract<WireObservation, { type: "write" }>> = {},
) =>
  ({
    type: "write",
    ts: ms(t),
    request: parseApiRequest(method, url)!,
    code,
    object,
    ...extra,
  }) as WireObservation;
const begin = (t: number, method: string, url: string, sent?: unknown) =>
  ({ type: "begin", ts: ms(t), request: parseApiRequest(method, url)!, sent }) as WireObservation;
/** A body as a client sends it: what a PUT's resourceVersion precondition is read from. */
const body = (m: ObjectMeta) => ({
  apiVersion: m.group ? `${m.group}/v1` : "v1",
  kind: m.kind,
  metadata: { name: m.name, namespace: m.namespace, resourceVersion: m.rv },
});

function traced(obs: WireObservation[], opts: Partial<WireTracerOptions> = {}, endAt?: number) {
  const events: TraceEvent[] = [];
  const tracer = new WireTracer({
    emit: (e: UnsequencedEvent) => {
      const ev = { ...e, seq: events.length + 1 } as TraceEvent;
      events.push(ev);
      return ev.seq;
    },
    ...opts,
  });
  for (const o of obs) tracer.observe(o);
  if (endAt !== undefined) tracer.advance(ms(endAt));
  tracer.flush();
  const analyzer = new Analyzer();
  analyzer.pushAll(events);
  const passes = analyzer.passes("default/example-foo");
  return { events, tracer, analyzer, passes, causes: passes.map((p) => p.cause) };
}

/** One create as sample-controller makes it: two passes of its own writes' echoes after the first. */
const createFoo: WireObservation[] = [
  watch(0, "ADDED", foo("10")),
  write(5, "POST", DEPLOYS, 201, deploy("11")),
  watch(6, "ADDED", deploy("11")), // arrives while the pass runs: held for the next
  write(8, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("10")) }),
  begin(19, "PUT", `${FOOS}/example-foo/status`),
  watch(20, "MODIFIED", foo("12")), // after the next pass's request left: parked for the one after
  write(22, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("12")) }),
  write(40, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("12")) }),
];

describe("WireTracer", () => {
  it("infers one pass per burst of writes ending in a status write, and classifies by resourceVersion", () => {
    const { events, passes, causes } = traced(createFoo, { primaries: [FOO] });
    expect(causes).toEqual(["external", "self", "self"]);
    // The second pass took the triggers that came before its request; the Foo's own status echo,
    // which came after, triggered the third.
    expect(passes[1].triggers.map((t) => t.watchSeq)).toEqual([4]);
    expect(passes[2].triggers.map((t) => t.watchSeq)).toEqual([9]);
    expect(passes.map((p) => p.fromMarkers)).toEqual([true, true, true]);
    expect(passes.map((p) => p.outcome)).toEqual(["synced", "synced", "synced"]);
    expect(passes.map((p) => p.changingWrites)).toEqual([2, 0, 0]);
    const write = events.find((e) => e.stage === "write")!;
    expect(write).toMatchObject({
      verb: "create",
      target: "deployments/default/example-foo",
      code: 201,
      rv: "11",
      changed: true,
    });
    expect(events.filter((e) => e.stage === "enqueue").every((e) => e.inferred)).toBe(true);
    expect(events.filter((e) => e.stage === "done").every((e) => e.inferred)).toBe(true);
  });

  it("learns the primary kind from the first status write and traces what came before it", () => {
    const learned: string[] = [];
    const { causes, tracer } = traced(createFoo, { onPrimary: (k) => learned.push(k) });
    expect(learned).toEqual([FOO]);
    expect(tracer.primaryKinds()).toEqual([FOO]);
    expect(causes).toEqual(["external", "self", "self"]);
  });

  it("ends a pass after a failed write (requeued) and when its writes stop for passGapMs", () => {
    const { passes, analyzer } = traced(
      [
        watch(0, "ADDED", foo("10")),
        write(5, "POST", DEPLOYS, 409, deploy(""), { reason: "AlreadyExists" }),
        write(20, "PATCH", `${DEPLOYS}/example-foo`, 200, deploy("30")),
        write(400, "PATCH", `${DEPLOYS}/example-foo`, 200, deploy("31")),
      ],
      { primaries: [FOO], passGapMs: 100 },
      1000,
    );
    expect(passes.map((p) => p.outcome)).toEqual(["requeued", "synced", "synced"]);
    expect(passes.map((p) => p.cause)).toEqual(["external", "retry", "unknown"]);
    expect(analyzer.findings().map((f) => f.kind)).toContain("conflict");
  });

  it("gives a pass the watch events that came before its first request, and none after", () => {
    const { passes } = traced(
      [
        watch(0, "ADDED", foo("10")),
        write(5, "POST", DEPLOYS, 201, deploy("11")),
        watch(6, "MODIFIED", foo("20")), // someone else's edit, during the pass
        write(8, "PUT", `${FOOS}/example-foo/status`, 200, foo("21"), { sent: body(foo("20")) }),
        watch(9, "MODIFIED", foo("21")), // the status echo, after Done, before the next request
        watch(28, "MODIFIED", deploy("22")), // the rollout, before the next pass's request
        begin(29, "PUT", `${FOOS}/example-foo/status`, body(foo("21"))),
        watch(31, "MODIFIED", deploy("23")), // between that request and its answer
        write(32, "PUT", `${FOOS}/example-foo/status`, 200, foo("21"), { sent: body(foo("21")) }),
        begin(50, "PUT", `${FOOS}/example-foo/status`, body(foo("21"))),
        write(51, "PUT", `${FOOS}/example-foo/status`, 200, foo("21"), { sent: body(foo("21")) }),
      ],
      { primaries: [FOO], passGapMs: 100 },
    );
    expect(passes.map((p) => p.triggers.length)).toEqual([1, 3, 1]);
    expect(passes.map((p) => p.cause)).toEqual(["external", "external", "external"]);
  });

  it("moves a pass's latest trigger to the next pass when that one would have none", () => {
    const { passes } = traced(
      [
        watch(0, "ADDED", foo("10")),
        write(5, "POST", DEPLOYS, 201, deploy("11")),
        write(8, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("10")) }),
        watch(9, "MODIFIED", foo("12")), // the status echo
        watch(20, "MODIFIED", deploy("13")), // the rollout: reached the controller after its Get
        begin(21, "PUT", `${FOOS}/example-foo/status`, body(foo("12"))),
        write(22, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("12")) }),
        begin(40, "PUT", `${FOOS}/example-foo/status`, body(foo("12"))),
        write(41, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("12")) }),
      ],
      { primaries: [FOO] },
    );
    expect(passes.map((p) => p.cause)).toEqual(["external", "self", "external"]);
    expect(passes.map((p) => p.triggers.length)).toEqual([1, 1, 1]);
  });

  it("orders a retry after the watch events that came before it was due", () => {
    const { passes } = traced(
      [
        watch(0, "ADDED", foo("10")),
        write(5, "PUT", `${FOOS}/example-foo/status`, 409, undefined, { sent: body(foo("10")) }),
        watch(7, "MODIFIED", foo("20")), // before the 5 ms retry is due
        begin(30, "PUT", `${FOOS}/example-foo/status`, body(foo("20"))),
        write(31, "PUT", `${FOOS}/example-foo/status`, 200, foo("21"), { sent: body(foo("20")) }),
      ],
      { primaries: [FOO] },
    );
    expect(passes[1].triggers.map((t) => t.cause)).toEqual(["external", "retry"]);
    expect(passes.map((p) => p.cause)).toEqual(["external", "external"]);
  });

  it("lets watch events go to the next pass when a begun request is never answered", () => {
    const { passes } = traced(
      [
        watch(0, "ADDED", foo("10")),
        begin(1, "PUT", `${FOOS}/example-foo/status`, body(foo("10"))),
        watch(2, "MODIFIED", foo("11")),
        write(500, "PUT", `${FOOS}/example-foo/status`, 200, foo("12"), { sent: body(foo("11")) }),
      ],
      { primaries: [FOO], passGapMs: 100 },
    );
    expect(passes.map((p) => p.triggers.length)).toEqual([2]);
  });

  it("resolves owners through the objects it has seen, and a dependent of a deleted owner to none", () => {
    const rs: ObjectMeta = {
      group: "apps",
      kind: "ReplicaSet",
      namespace: "default",
      name: "example-foo-abc",
      uid: "uid-rs",
      rv: "13",
      owner: { group: "apps", kind: "Deployment", name: "example-foo", uid: "uid-deploy" },
    };
    const { events } = traced(
      [
        watch(0, "ADDED", foo("10")),
        watch(1, "ADDED", deploy("11")),
        watch(2, "ADDED", rs),
        watch(3, "DELETED", foo("14")),
        watch(4, "MODIFIED", deploy("15")),
        watch(5, "ADDED", { ...foo("1"), name: "other", uid: "u2", namespace: "ns2" }),
      ],
      { primaries: [FOO] },
      1000,
    );
    const watches = events.filter((e) => e.stage === "watch");
    expect(watches.map((e) => [e.kind, e.key])).toEqual([
      ["Foo", "default/example-foo"],
      ["Deployment", "default/example-foo"],
      ["ReplicaSet", "default/example-foo"],
      ["Foo", "default/example-foo"],
      ["Deployment", ""],
      ["Foo", "ns2/other"],
    ]);
    expect(watches[4]).toMatchObject({ event: "update", rv: "15", oldRv: "11" });
    // No enqueue for an orphan; the others once no pass took them for passGapMs.
    expect(events.filter((e) => e.stage === "enqueue").map((e) => e.causeSeq)).toEqual([
      1, 2, 3, 4, 6,
    ]);
  });

  it("takes a list as an informer does: new objects as adds, changed ones as updates, the rest as no news", () => {
    const { events } = traced(
      [
        { type: "list", ts: ms(0), items: [foo("10")] },
        { type: "list", ts: ms(10), items: [foo("10"), deploy("11")] },
        { type: "list", ts: ms(20), items: [foo("12"), deploy("11")] },
      ],
      { primaries: [FOO] },
    );
    const watches = events.filter((e) => e.stage === "watch");
    expect(watches.map((e) => [e.kind, e.event, e.rv])).toEqual([
      ["Foo", "add", "10"],
      ["Deployment", "add", "11"],
      ["Foo", "update", "12"],
    ]);
  });

  it("takes the first list of a resource as the informer's initial list: its adds are initial, a re-list's are not", () => {
    const FOOS_RESOURCE = { group: "samplecontroller.k8s.io", resource: "foos" };
    const DEPLOYS_RESOURCE = { group: "apps", resource: "deployments" };
    const other = { ...foo("20"), name: "other-foo", uid: "uid-other" };
    const { events } = traced(
      [
        { type: "list", ts: ms(0), items: [foo("10")], resource: FOOS_RESOURCE },
        { type: "list", ts: ms(5), items: [deploy("11")], resource: DEPLOYS_RESOURCE },
        { type: "list", ts: ms(10), items: [foo("10"), other], resource: FOOS_RESOURCE },
      ],
      { primaries: [FOO] },
    );
    const watches = events.filter((e) => e.stage === "watch");
    expect(watches.map((e) => [e.kind, e.name, e.event, e.initial])).toEqual([
      ["Foo", "example-foo", "add", true],
      ["Deployment", "example-foo", "add", true],
      ["Foo", "other-foo", "add", undefined],
    ]);
  });

  it("says a no-op write changed nothing and a changed rv changed its object", () => {
    const { events } = traced(
      [
        watch(0, "ADDED", deploy("11")),
        write(5, "PUT", `${DEPLOYS}/example-foo`, 200, deploy("11")),
        write(6, "PATCH", `${DEPLOYS}/example-foo`, 200, deploy("12")),
        write(7, "PUT", `${FOOS}/example-foo/status`, 200, foo("13"), { sent: body(foo("10")) }),
      ],
      { primaries: [FOO] },
    );
    expect(events.filter((e) => e.stage === "write").map((e) => e.changed)).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe("two watches of the same objects", () => {
  it("tell each change once: no copy, no resync made of a copy", () => {
    const once = traced(createFoo);
    const twice = traced(
      createFoo.flatMap((o): WireObservation[] =>
        o.type === "watch" ? [o, { ...o, ts: o.ts + 100 }] : [o],
      ),
    );
    const watches = (r: ReturnType<typeof traced>) =>
      r.events.filter((e) => e.stage === "watch").map((e) => [e.kind, e.event, e.rv]);
    expect(watches(twice)).toEqual(watches(once));
    expect(twice.causes).toEqual(once.causes);
    expect(twice.causes).not.toContain("resync");
  });

  it("tell a delete once", () => {
    const r = traced(
      [
        watch(0, "ADDED", foo("10")),
        watch(1, "DELETED", foo("12")),
        watch(2, "DELETED", foo("12")),
      ],
      { primaries: [FOO] },
    );
    expect(r.events.filter((e) => e.stage === "watch").map((e) => e.event)).toEqual([
      "add",
      "delete",
    ]);
  });
});
