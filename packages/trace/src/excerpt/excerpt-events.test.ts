import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { analyze, fixture, FIXTURES } from "../testing/fixtures.ts";
import { randomTrace } from "../testing/random-trace.ts";
import { ExcerptEvents } from "./excerpt-events.ts";

/** The rule, on a whole trace at once: the first Foo created, else the first key of no note. */
function wholeTrace(events: readonly TraceEvent[], key?: string) {
  const add = events.find(
    (e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add" && e.key,
  );
  const k = key ?? add?.key ?? events.find((e) => e.key && e.stage !== "note")?.key;
  return k === undefined ? undefined : { key: k, events: events.filter((e) => e.key === k) };
}

function streamed(events: readonly TraceEvent[], key?: string) {
  const picker = new ExcerptEvents(key);
  for (const e of events) picker.take(e);
  return picker.picked();
}

const LOGS = [
  ...readdirSync(FIXTURES + "stage").map((f) => "stage/" + f),
  ...readdirSync(FIXTURES + "klog")
    .filter((f) => f.endsWith(".log"))
    .map((f) => "klog/" + f),
];

describe("ExcerptEvents", () => {
  for (const log of LOGS) {
    it(`picks what the whole trace's rule picks: ${log}`, () => {
      const { events } = analyze(fixture(log), { year: 2026 });
      expect(streamed(events)).toEqual(wholeTrace(events));
      for (const key of new Set(events.map((e) => e.key)))
        if (key) expect(streamed(events, key)).toEqual(wholeTrace(events, key));
    });
  }

  it("picks the same from random traces, the default key and another", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const events = randomTrace(seed, 1 + (seed % 6), 4);
      expect(streamed(events)).toEqual(wholeTrace(events));
      const last = events.at(-1)?.key;
      if (last) expect(streamed(events, last)).toEqual(wholeTrace(events, last));
    }
  });

  it("holds only the first Foo's events once it is created, whatever came or comes by", () => {
    const trace = randomTrace(7, 50, 6);
    // Passes of another key before any Foo is created (an unpatched controller's, say).
    const early = trace
      .filter((e) => e.stage !== "watch")
      .slice(0, 30)
      .map((e) => ({ ...e, key: "early/bird" }));
    const events = [...early, ...trace];
    expect(streamed(events)).toEqual(wholeTrace(events));
    const picker = new ExcerptEvents();
    for (const e of events) picker.take(e);
    const held = Reflect.get(picker, "kept") as TraceEvent[];
    const { key } = picker.picked()!;
    expect(key).not.toBe("early/bird");
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((e) => e.key === key)).toBe(true);
    expect(held.length).toBeLessThan(events.length / 10);
  });

  it("names no key in a trace without one", () => {
    expect(streamed([])).toBeUndefined();
  });
});
