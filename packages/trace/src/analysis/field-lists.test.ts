import { describe, expect, it } from "vitest";
import { FieldLists } from "./field-lists.ts";

describe("FieldLists", () => {
  it("names a list of names by one number, however often and from wherever it is made", () => {
    const lists = new FieldLists();
    const a = lists.with(0, ["status.availableReplicas"]);
    expect(lists.with(0, ["status.availableReplicas"])).toBe(a);
    const ab = lists.with(a, ["spec.replicas"]);
    expect(lists.names(ab)).toEqual(["status.availableReplicas", "spec.replicas"]);
    // The other order is another list: a pass's fields keep the order its writes named them in.
    const ba = lists.with(lists.with(0, ["spec.replicas"]), ["status.availableReplicas"]);
    expect(ba).not.toBe(ab);
    expect(lists.names(ba)).toEqual(["spec.replicas", "status.availableReplicas"]);
    expect(lists.names(0)).toEqual([]);
  });

  it("adds a name a list has as nothing, and never changes a list it handed out", () => {
    const lists = new FieldLists();
    const a = lists.with(0, ["x"]);
    const given = lists.names(a);
    expect(lists.with(a, ["x"])).toBe(a);
    // A name cut from a longer text (as a log line's are) is the same name.
    expect(lists.with(a, ["prefix x".slice(7)])).toBe(a);
    const ay = lists.with(a, ["y"]);
    expect(given).toEqual(["x"]);
    expect(Object.isFrozen(lists.names(ay))).toBe(true);
    expect(lists.names(ay)).toEqual(["x", "y"]);
  });

  it("makes a write's many names one list, past a short list's length: no list per name", () => {
    const lists = new FieldLists();
    const many = Array.from({ length: 20_000 }, (_, i) => `status.f${i}`);
    const all = lists.with(0, [...many, "status.f7"]);
    expect(lists.names(all)).toEqual(many);
    // The short lists on the way, and this one: not a list per name.
    expect(all).toBeLessThan(40);
    // The same names again, from anywhere, are the same list; a name more is another.
    expect(lists.with(0, many)).toBe(all);
    expect(lists.with(all, ["status.f19999", "status.f0"])).toBe(all);
    const more = lists.with(lists.with(0, many.slice(0, 100)), [...many.slice(100), "spec.x"]);
    expect(lists.names(more)).toEqual([...many, "spec.x"]);
    expect(lists.with(all, ["spec.x"])).toBe(more);
    // Built name by name, the same list.
    let one = 0;
    for (const name of many.slice(0, 50)) one = lists.with(one, [name]);
    expect(lists.names(one)).toEqual(many.slice(0, 50));
    expect(lists.with(0, many.slice(0, 50))).toBe(one);
  });
});
