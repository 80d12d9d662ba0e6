import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer, readTraceText, type TraceEvent } from "@loopscope/trace";
import { outcomeLine } from "./outcome.ts";

const KEY = "default/example-foo";
const STAGE = join(import.meta.dirname, "../../../../packages/trace/fixtures/stage");

function events(fixture: string): TraceEvent[] {
  return readTraceText(readFileSync(join(STAGE, fixture), "utf8"), { year: 2026 }).events;
}

function analysed(evs: TraceEvent[]): Analyzer {
  const a = new Analyzer();
  a.pushAll(evs.map((e, i) => ({ ...e, seq: i + 1 })));
  return a;
}

/** The fixture's events moved to another Foo `name`, `ms` later. */
function renamed(evs: TraceEvent[], name: string, ms: number): TraceEvent[] {
  return evs.map((e) => {
    const x = { ...e, ts: e.ts + ms * 1000 } as Record<string, unknown>;
    for (const f of ["key", "target", "name"])
      if (typeof x[f] === "string") x[f] = (x[f] as string).replace("example-foo", name);
    return x as unknown as TraceEvent;
  });
}

describe("a scenario's outcome line", () => {
  it("says per Foo its passes by cause and whether it went quiet, or looped", () => {
    expect(outcomeLine(analysed(events("create-canonical.log")), [KEY])).toBe(
      "default/example-foo: 7 passes (4 external, 2 self-triggered, 1 resync), quiescent",
    );
    expect(outcomeLine(analysed(events("hot-loop.log")), ["default/hot-foo"])).toBe(
      "default/hot-foo: 8 passes (1 external, 7 self-triggered), a hot loop, not quiescent",
    );
  });

  it("names three Foos and counts the rest", () => {
    const one = events("create-canonical.log");
    const five = ["a", "b", "c", "d", "e"].flatMap((n, i) => renamed(one, n, i * 60_000));
    const keys = ["a", "b", "c", "d", "e"].map((n) => `default/${n}`);
    expect(outcomeLine(analysed(five), keys)).toMatch(
      /^default\/a: 7 passes .*; default\/b: .*; default\/c: .*; and 2 more Foos$/,
    );
  });

  it("says of a Foo created again that it counts from then; names only the Foos it applied", () => {
    const one = events("create-canonical.log");
    const again = analysed([...one, ...renamed(one, "example-foo", 60_000)]);
    expect(outcomeLine(again, [KEY])).toMatch(
      /^default\/example-foo \(since it was created again\): /,
    );
    // Another Foo on the cluster, resynced while the scenario ran: not the scenario's.
    const at = (us: number) =>
      `I1202 09:20:00.${String(us).padStart(6, "0")}   4242 controller.go:1] `;
    const idle = readTraceText(
      [
        `${at(1)}STAGE/watch kind=Foo event=update key=default/idle rv=5 oldRv=5`,
        `${at(2)}STAGE/enqueue key=default/idle len=1`,
        `${at(3)}STAGE/dequeue key=default/idle len=0`,
        `${at(4)}STAGE/read key=default/idle rv=5 generation=1`,
        `${at(5)}"Successfully synced" objectName="default/idle"`,
      ].join("\n") + "\n",
      { year: 2026 },
    ).events;
    const withIdle = analysed([...idle, ...one]);
    expect(withIdle.summary("default/idle")?.passes).toBe(1);
    expect(outcomeLine(withIdle, [KEY])).toBe(outcomeLine(analysed(one), [KEY]));
    expect(outcomeLine(withIdle, ["default/never-applied"])).toBeUndefined();
  });
});
