import { describe, expect, it } from "vitest";
import { KeyState, RECENT } from "./key-state.ts";
import { RvRings } from "./rv-ring.ts";
import { PASS_CAUSES } from "./model.ts";
import { STAGES } from "../event.ts";

describe("a key's summary counts", () => {
  it("name every stage and every cause, in the model's order", () => {
    const s = new KeyState(0, "ns/a", 0, new RvRings(RECENT)).summary;
    expect(Object.keys(s.byStage)).toEqual([...STAGES]);
    expect(Object.keys(s.passCauses)).toEqual([...PASS_CAUSES]);
    expect(Object.values(s.byStage).every((n) => n === 0)).toBe(true);
    expect(Object.values(s.passCauses).every((n) => n === 0)).toBe(true);
  });
});
