import { describe, expect, it } from "vitest";
import type { KeySummary } from "@loopscope/trace";
import { objectState } from "../panels/ObjectsPanel.tsx";
import { clusterFoos } from "./clusterFoos.ts";

const summary = (key: string): KeySummary =>
  ({ key, quiescent: true, hotLoop: false }) as unknown as KeySummary;

describe("a live Foo's state from the cluster's objects", () => {
  const cluster = clusterFoos({
    atSeq: 40,
    objects: [
      { kind: "Foo", namespace: "default", name: "kept", resourceVersion: "1" },
      {
        kind: "Foo",
        namespace: "default",
        name: "going",
        resourceVersion: "2",
        deletionTimestamp: "2026-12-04T04:00:00Z",
      },
      { kind: "Deployment", namespace: "default", name: "gone", resourceVersion: "3" },
    ],
  });

  it("calls a Foo the cluster no longer has deleted, and one with a deletionTimestamp deleting", () => {
    expect(objectState(summary("default/kept"), cluster, 40).label).toBe("quiescent");
    expect(objectState(summary("default/going"), cluster, 40).label).toBe("deleting");
    // A Deployment of that name is not the Foo.
    expect(objectState(summary("default/gone"), cluster, 12).label).toBe("deleted");
  });

  it("believes the trace over a snapshot older than the Foo's latest event", () => {
    // Created after the snapshot was taken: not in it, yet not deleted.
    expect(objectState(summary("default/new"), cluster, 41).label).toBe("quiescent");
    expect(objectState(summary("default/new")).label).toBe("quiescent");
  });
});
