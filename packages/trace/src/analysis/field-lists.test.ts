import { describe, expect, it } from "vitest";
import { FieldLists } from "./field-lists.ts";

describe("FieldLists", () => {
  it("names a list of names by one number, however often and from wherever it is made", () => {
    const lists = new FieldLists();
    const a = lists.with(0, "status.availableReplicas");
    expect(lists.with(0, "status.availableReplicas")).toBe(a);
    const ab = lists.with(a, "spec.replicas");
    expect(lists.names(ab)).toEqual(["status.availableReplicas", "spec.replicas"]);
    // The other order is another list: a pass's fields keep the order its writes named them in.
    const ba = lists.with(lists.with(0, "spec.replicas"), "status.availableReplicas");
    expect(ba).not.toBe(ab);
    expect(lists.names(ba)).toEqual(["spec.replicas", "status.availableReplicas"]);
    expect(lists.names(0)).toEqual([]);
  });

  it("adds a name a list has as nothing, and never changes a list it handed out", () => {
    const lists = new FieldLists();
    const a = lists.with(0, "x");
    const given = lists.names(a);
    expect(lists.with(a, "x")).toBe(a);
    // A name cut from a longer text (as a log line's are) is the same name.
    expect(lists.with(a, "prefix x".slice(7))).toBe(a);
    const ay = lists.with(a, "y");
    expect(given).toEqual(["x"]);
    expect(Object.isFrozen(lists.names(ay))).toBe(true);
    expect(lists.names(ay)).toEqual(["x", "y"]);
  });
});
