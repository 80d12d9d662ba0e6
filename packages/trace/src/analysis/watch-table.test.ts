import { describe, expect, it } from "vitest";
import { PASS_CAUSES } from "./model.ts";
import { WATCH_SLOTS, WatchTable } from "./watch-table.ts";

describe("the table of recent watch classifications", () => {
  it("gives back each cause, inferred or not, and a write seq only when there was one", () => {
    const t = new WatchTable();
    const ring = t.add();
    PASS_CAUSES.forEach((cause, i) => {
      const exact = t.set(t.slot(ring, 2 * i), 100 + i, cause, false, 7 * i);
      const guessed = t.set(t.slot(ring, 2 * i + 1), 200 + i, cause, true, undefined);
      expect([t.seq(exact), t.cause(exact), t.inferred(exact), t.writeSeq(exact)]).toEqual([
        100 + i,
        cause,
        false,
        7 * i,
      ]);
      expect([t.seq(guessed), t.cause(guessed), t.inferred(guessed), t.writeSeq(guessed)]).toEqual([
        200 + i,
        cause,
        true,
        undefined,
      ]);
    });
  });

  it("finds a seq in its own ring only, and never in an empty slot (seq 0 included)", () => {
    const t = new WatchTable();
    const rings = Array.from({ length: 5000 }, () => t.add()); // past one chunk of rows
    expect(t.find(rings[0], 0)).toBe(-1);
    const last = WATCH_SLOTS - 1;
    t.set(t.slot(rings[4097], last), 0, "self", false, 3);
    t.set(t.slot(rings[4098], 0), -5, "resync", false, undefined);
    expect(t.find(rings[4097], 0)).toBe(t.slot(rings[4097], last));
    expect(t.find(rings[4096], 0)).toBe(-1);
    expect(t.find(rings[4098], -5)).toBe(t.slot(rings[4098], 0));
    expect(t.find(rings[4097], -5)).toBe(-1);
    // A slot written again holds the new event only.
    t.set(t.slot(rings[4097], last), 9, "external", true, undefined);
    expect(t.find(rings[4097], 0)).toBe(-1);
    expect(t.cause(t.find(rings[4097], 9))).toBe("external");
  });
});
