import { describe, expect, it } from "vitest";
import type { TraceEvent } from "@loopscope/trace";
import { objectState } from "../panels/ObjectsPanel.tsx";
import { passErrors } from "./passErrors.ts";
import { TraceSession } from "./session.ts";

const KEY = "default/no-name";
const OTHER = "default/fine";

/** sample-controller on a Foo with no spec.deploymentName: HandleError, return nil, "synced". */
const EVENTS: TraceEvent[] = [
  {
    seq: 1,
    ts: 1000,
    stage: "watch",
    key: KEY,
    kind: "Foo",
    event: "add",
    name: "no-name",
    rv: "5",
  },
  { seq: 2, ts: 1010, stage: "enqueue", key: KEY, cause: "watch", causeSeq: 1, len: 1 },
  { seq: 3, ts: 1020, stage: "dequeue", key: KEY, worker: 1, len: 0 },
  { seq: 4, ts: 1030, stage: "read", key: KEY, rv: "5", worker: 1 },
  { seq: 5, ts: 1035, stage: "note", key: OTHER, level: "E", text: "another Foo's error" },
  {
    seq: 6,
    ts: 1040,
    stage: "note",
    key: KEY,
    level: "E",
    text: "Deployment name missing from object reference",
  },
  { seq: 7, ts: 1045, stage: "note", key: KEY, level: "I", text: "just saying" },
  { seq: 8, ts: 1050, stage: "done", key: KEY, outcome: "synced", worker: 1 },
] as TraceEvent[];

describe("errors logged in a pass that ended 'synced'", () => {
  it("are found among the pass's own events, and make the Foo's state 'error'", () => {
    const session = new TraceSession({ kind: "live", name: "live" });
    session.push(EVENTS);
    const [pass] = session.passesOf(KEY);
    expect(pass!.outcome).toBe("synced");
    expect(passErrors(session.store, pass!)).toEqual([
      { seq: 6, text: "Deployment name missing from object reference" },
    ]);
    const erred = passErrors(session.store, session.lastPassOf(KEY)!).length > 0;
    expect(objectState(session.summaryOf(KEY), undefined, 8, erred)).toEqual({
      label: "error",
      tone: "bad",
    });
  });
});

describe("the error a pass ended with", () => {
  it("is the requeued pass's own, and a pass known from its end line alone has it too", () => {
    const failed = "Operation cannot be fulfilled on foos.samplecontroller.k8s.io: conflict";
    const session = new TraceSession({ kind: "replay", name: "x.log" });
    session.push([
      ...EVENTS.slice(0, 4),
      { seq: 5, ts: 1040, stage: "done", key: KEY, outcome: "requeued", error: failed },
      // An unpatched controller's log: its "Error syncing" line, no dequeue before it.
      { seq: 6, ts: 2000, stage: "done", key: OTHER, outcome: "requeued", error: "boom" },
      { seq: 7, ts: 2100, stage: "done", key: OTHER, outcome: "synced" },
    ] as TraceEvent[]);
    expect(passErrors(session.store, session.passesOf(KEY)[0]!)).toEqual([
      { seq: 5, text: failed },
    ]);
    const [first, second] = session.passesOf(OTHER);
    expect(first!.fromMarkers).toBe(true);
    expect(passErrors(session.store, first!)).toEqual([{ seq: 6, text: "boom" }]);
    expect(passErrors(session.store, second!)).toEqual([]);
  });
});
