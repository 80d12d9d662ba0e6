import { describe, expect, it } from "vitest";
import { KeyState, RECENT } from "./key-state.ts";
import { RvRings } from "./rv-ring.ts";
import { WatchTable } from "./watch-table.ts";
import { PASS_CAUSES } from "./model.ts";
import { STAGES } from "../event.ts";

const fresh = (): KeyState => new KeyState(0, "ns/a", 0, new RvRings(RECENT), new WatchTable());

describe("a key's summary counts", () => {
  it("name every stage and every cause, in the model's order", () => {
    const s = fresh().summary(null, false);
    expect(Object.keys(s.byStage)).toEqual([...STAGES]);
    expect(Object.keys(s.passCauses)).toEqual([...PASS_CAUSES]);
    expect(Object.values(s.byStage).every((n) => n === 0)).toBe(true);
    expect(Object.values(s.passCauses).every((n) => n === 0)).toBe(true);
  });

  it("count each cause under its own name, and start over with a new life", () => {
    const st = fresh();
    PASS_CAUSES.forEach((c, i) => {
      for (let n = 0; n <= i; n++) st.countCause(c, 1);
    });
    st.countCause("unknown", -1);
    const counted = st.summary(null, false).passCauses;
    expect(counted).toEqual({ external: 1, self: 2, resync: 3, retry: 4, unknown: 4 });
    expect(st.summary(null, false).selfTriggered).toBe(2);
    st.watches = st.writes = 3;
    st.resetCounts(42);
    const s = st.summary(2, true);
    expect(s.firstTs).toBe(42);
    expect(Object.values(s.passCauses).every((n) => n === 0)).toBe(true);
    expect(s.byStage.watch + s.byStage.write + s.writes).toBe(0);
    expect([s.reconcilesForCreate, s.quiescent]).toEqual([2, true]);
  });
});
