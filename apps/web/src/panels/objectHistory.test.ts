import { describe, expect, it } from "vitest";
import { readTraceText } from "@loopscope/trace";
import { TraceStore } from "../store/traceStore.ts";
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

  it("takes no bare STAGE/watch line (no rv, maybe an update) for the Foo created again", () => {
    const at = (s: string, msg: string) => `I1202 09:14:0${s}   48211 controller.go:131] ${msg}`;
    const { events } = readTraceText(
      [
        at("6.000000", "STAGE/watch default/example-foo"),
        at("6.001000", "STAGE/dequeue default/example-foo 0"),
        at("6.002000", "STAGE/read 1001"),
        at("6.003000", '"Successfully synced" objectName="default/example-foo"'),
        at("6.010000", "STAGE/watch default/example-foo"),
        at("6.011000", "STAGE/dequeue default/example-foo 0"),
        at("6.012000", "STAGE/read 1003"),
      ].join("\n") + "\n",
      { year: 2026 },
    );
    const store = new TraceStore();
    store.append(events);
    const h = rvHistory(store, KEY, FOO, events[events.length - 1]!.seq);
    expect(h.lifeStartSeq).toBeUndefined();
    expect(h.steps.map((s) => s.rv)).toEqual(["1001", "1003"]);
  });
});
