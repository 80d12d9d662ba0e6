import { describe, expect, it } from "vitest";
import { visibleRows } from "./visibleRows.ts";

const keys = Array.from({ length: 10 }, (_, i) => `default/foo-${i}`);

describe("visibleRows", () => {
  it("shows every key when there are few", () => {
    expect(visibleRows(keys, [], 10)).toEqual({ shown: keys, hidden: 0 });
  });

  it("shows the first max keys and counts the rest", () => {
    expect(visibleRows(keys, [], 4)).toEqual({ shown: keys.slice(0, 4), hidden: 6 });
  });

  it("keeps a selected key past the cut, once, and ignores selections not in the list", () => {
    const r = visibleRows(keys, ["default/foo-8", "default/foo-1", "other/x"], 4);
    expect(r.shown).toEqual([...keys.slice(0, 4), "default/foo-8"]);
    expect(r.hidden).toBe(5);
  });
});
