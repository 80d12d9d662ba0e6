import { describe, expect, it } from "vitest";
import type { KeySummary } from "@loopscope/trace";
import { objectState } from "./ObjectsPanel.tsx";

const summary = (quiescent: boolean, hotLoop: boolean): KeySummary =>
  ({ key: "default/example-foo", quiescent, hotLoop }) as unknown as KeySummary;

describe("a Foo's state in the objects table", () => {
  it("is 'hot loop' while the loop runs, and quiescent once it stopped (the finding stays)", () => {
    expect(objectState(summary(false, true)).label).toBe("hot loop");
    // A pass that errs inside a loop (a 409 on a stale read) does not hide the loop.
    expect(objectState(summary(false, true), undefined, 0, true).label).toBe("hot loop");
    const after = objectState(summary(true, true));
    expect(after).toMatchObject({ label: "quiescent", tone: "good" });
    expect(after.title).toContain("hot loop stopped");
    expect(objectState(summary(true, false)).title).toBeUndefined();
  });

  it("is 'deleted' when the trace saw its delete and there is no snapshot (the proxy)", () => {
    const gone = { ...summary(true, false), deleted: true };
    expect(objectState(gone)).toMatchObject({ label: "deleted", tone: "muted" });
    // A live cluster's snapshot says what exists, here that it does.
    const present = { atSeq: 9, present: new Set([gone.key]), deleting: new Set<string>() };
    expect(objectState(gone, present, 9).label).toBe("quiescent");
  });
});
