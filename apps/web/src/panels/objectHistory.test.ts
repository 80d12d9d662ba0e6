import { describe, expect, it } from "vitest";
import { twoLivesSession } from "../testing/twoLives.ts";
import { rvHistory } from "./objectHistory.ts";

const KEY = "default/example-foo";
const FOO = `Foo ${KEY}`;

describe("rvHistory", () => {
  const { session } = twoLivesSession();
  const firstAdd = Array.from(session.store.rowsOf(KEY), (r) => session.store.event(r)).filter(
    (e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add",
  );

  it("shows the history of the selected event's Foo only, not every Foo of that name", () => {
    expect(firstAdd).toHaveLength(2);
    const [one, two] = firstAdd;
    const first = rvHistory(session.store, KEY, FOO, one.seq);
    expect(first.lifeStartSeq).toBeUndefined();
    expect(first.steps.length).toBeGreaterThan(2);
    expect(first.steps.every((s) => s.seq < two.seq)).toBe(true);
    expect(first.steps.some((s) => s.rv.startsWith("9"))).toBe(false);

    const second = rvHistory(session.store, KEY, FOO, two.seq + 3);
    expect(second.lifeStartSeq).toBe(two.seq);
    expect(second.steps.map((s) => s.rv)).toEqual(first.steps.map((s) => `9${s.rv}`));
  });
});
