/**
 * `loopscope proxy --for group/Kind` traces controllers of any kind: the Analyzer's rules that
 * concern the key's own object — a second add begins a new life, another writer's change to it
 * ends a create — must follow that kind, not only Foo. The Analyzer learns it as the proxy does:
 * the controller writes the status of its own objects, and the echo of that write shows their kind.
 */
import { describe, expect, it } from "vitest";
import { Analyzer, type TraceEvent, type UnsequencedEvent } from "@loopscope/trace";
import { parseApiRequest } from "./api-path.ts";
import { WireTracer } from "./wire-tracer.ts";
import type { ObjectMeta, WireObservation } from "./wire.ts";

const GROUP = "webapp.my.domain";
const KEY = "default/guestbook-sample";
const book = (rv: string, uid = "uid-book"): ObjectMeta => ({
  group: GROUP,
  kind: "Guestbook",
  namespace: "default",
  name: "guestbook-sample",
  uid,
  rv,
});
// Named as its owner, as kubebuilder's tutorials name theirs.
const deploy = (rv: string, owner = "uid-book"): ObjectMeta => ({
  group: "apps",
  kind: "Deployment",
  namespace: "default",
  name: "guestbook-sample",
  uid: `deploy-of-${owner}`,
  rv,
  owner: { group: GROUP, kind: "Guestbook", name: "guestbook-sample", uid: owner },
});
const BOOKS = `/apis/${GROUP}/v1/namespaces/default/guestbooks`;
const DEPLOYS = "/apis/apps/v1/namespaces/default/deployments";

const ms = (t: number) => 1_000_000_000_000 + t * 1000;
const watch = (t: number, event: "ADDED" | "MODIFIED" | "DELETED", object: ObjectMeta) =>
  ({ type: "watch", ts: ms(t), event, object }) as WireObservation;
const write = (t: number, method: string, url: string, code: number, object: ObjectMeta) =>
  ({
    type: "write",
    ts: ms(t),
    request: parseApiRequest(method, url)!,
    code,
    object,
  }) as WireObservation;

/** A Guestbook's create: its Deployment, its status, their echoes, a second pass that settles. */
function create(t: number, uid: string, rv: number): WireObservation[] {
  return [
    watch(t, "ADDED", book(`${rv}`, uid)),
    write(t + 5, "POST", DEPLOYS, 201, deploy(`${rv + 1}`, uid)),
    write(t + 8, "PUT", `${BOOKS}/guestbook-sample/status`, 200, book(`${rv + 2}`, uid)),
    watch(t + 10, "ADDED", deploy(`${rv + 1}`, uid)),
    watch(t + 11, "MODIFIED", book(`${rv + 2}`, uid)),
    write(t + 400, "PUT", `${BOOKS}/guestbook-sample/status`, 200, book(`${rv + 2}`, uid)),
  ];
}

function analyzed(obs: WireObservation[], endAt: number) {
  const events: TraceEvent[] = [];
  const tracer = new WireTracer({
    emit: (e: UnsequencedEvent) => {
      events.push({ ...e, seq: events.length + 1 } as TraceEvent);
      return events.length;
    },
    primaries: [`${GROUP}/Guestbook`],
  });
  for (const o of obs) tracer.observe(o);
  tracer.advance(ms(endAt));
  tracer.flush();
  const analyzer = new Analyzer();
  analyzer.pushAll(events);
  return analyzer;
}

describe("the Analyzer on a proxy trace of another kind than Foo", () => {
  it("ends the create at another writer's change to the Guestbook itself", () => {
    const analyzer = analyzed(
      [
        ...create(0, "uid-book", 10),
        watch(2000, "MODIFIED", book("20")), // kubectl edit
        write(2005, "PUT", `${BOOKS}/guestbook-sample/status`, 200, book("20")),
      ],
      3000,
    );
    expect(analyzer.passes(KEY).map((p) => p.cause)).toEqual(["external", "self", "external"]);
    // Settled after two passes, confirmed by the edit: without it the edit's pass would count.
    expect(analyzer.summary(KEY)!.reconcilesForCreate).toBe(2);
  });

  it("begins a new life when the Guestbook is deleted and created again", () => {
    const analyzer = analyzed(
      [
        ...create(0, "uid-book", 10),
        watch(2000, "DELETED", book("20")),
        watch(2001, "DELETED", deploy("21")),
        ...create(3000, "uid-book-2", 30),
      ],
      4000,
    );
    const passes = analyzer.passes(KEY);
    expect(passes.map((p) => p.number)).toEqual([1, 2, 1, 2]);
    const s = analyzer.summary(KEY)!;
    expect(s.passes).toBe(2);
    expect(s.reconcilesForCreate).toBe(2);
  });
});
