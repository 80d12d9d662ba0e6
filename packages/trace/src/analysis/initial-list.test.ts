/**
 * A Foo whose first watch event is an add of the informer's initial list (`initial: true`)
 * existed before the trace: the analysis, the excerpt and the narration say it was listed, not
 * created — and a Foo deleted and created again later in the run is a creation again.
 */
import { describe, expect, it } from "vitest";
import type { TraceEvent } from "../event.ts";
import { analyze, fixture } from "../testing/fixtures.ts";
import { buildExcerpt, excerptSpan, renderExcerptText } from "../excerpt/excerpt.ts";
import { narrate } from "../narration/narrate.ts";
import { Analyzer } from "./analyzer.ts";

const KEY = "default/example-foo";

/** The canonical create, its first Foo add made an add of the initial list. */
function listedTrace(): TraceEvent[] {
  const { events } = analyze(fixture("stage/create-canonical.log"));
  const first = events.find((e) => e.stage === "watch" && e.kind === "Foo" && e.event === "add");
  if (first?.stage !== "watch") throw new Error("no Foo add in the fixture");
  first.initial = true;
  return events;
}

const created = (events: TraceEvent[]) => {
  const a = new Analyzer();
  a.pushAll(events);
  return a;
};

describe("a Foo listed at start, not created", () => {
  it("is `listed` in its summary; its first pass is the add's, an external one", () => {
    const a = created(listedTrace());
    const s = a.summary(KEY)!;
    expect(s.listed).toBe(true);
    // Counted as before, from the event that began its life: here its listing.
    expect(s.reconcilesForCreate).toBe(6);
    expect(a.passes(KEY)[0]!.cause).toBe("external");
    expect(
      created(analyze(fixture("stage/create-canonical.log")).events).summary(KEY)!.listed,
    ).toBe(false);
  });

  it("has an excerpt from the informer's initial list, with no create counted", () => {
    const x = buildExcerpt(listedTrace())!;
    expect(x.listed).toBe(true);
    expect(excerptSpan(x)).toBe(
      "from the informer's initial list (it existed before the run) to quiescent",
    );
    const text = renderExcerptText(x);
    expect(text).not.toMatch(/creation|for one create/);
    expect(text).toContain("Reconcile count from the informer's initial list: 6 passes");
    // Its first pass is external, but no one changed the Foo: the informer listed it.
    expect(text).toContain(
      "pass 1 · external — the informer's initial list: the Foo existed before the run",
    );
    expect(text).toContain("‹external, the informer's initial list›");
    expect(text).not.toMatch(/pass 1 · external — someone else changed/);
  });

  it("is narrated as listed by the informer as the controller started, not as created", () => {
    const events = listedTrace();
    const add = events.find((e) => e.stage === "watch" && e.initial)!;
    const text = narrate(events).find((n) => n.seq === add.seq)!.text;
    expect(text).toContain("informer listed Foo default/example-foo (rv 1001) as the controller");
    expect(text).toContain("existed before the run");
    expect(text).not.toMatch(/created/);
  });

  it("is created again by a later add of another object of its name, and listed again by none", () => {
    const listed = listedTrace();
    const last = listed[listed.length - 1]!;
    const at = (i: number) => ({ seq: last.seq + i, ts: last.ts + i * 1000, key: KEY });
    const again: TraceEvent[] = [
      // The informer lists it again, unchanged (a relist): the same life, still listed.
      { ...at(1), stage: "watch", kind: "Foo", event: "add", name: "example-foo", rv: "1009" },
    ];
    const relisted = created([...listed, ...again]).summary(KEY)!;
    expect(relisted.listed).toBe(true);
    expect(relisted.passes).toBe(created(listed).summary(KEY)!.passes);
    // Deleted and created anew (another rv): a creation, whatever came before.
    again.push({
      ...at(2),
      stage: "watch",
      kind: "Foo",
      event: "add",
      name: "example-foo",
      rv: "2001",
    });
    const s = created([...listed, ...again]).summary(KEY)!;
    expect(s.listed).toBe(false);
    expect(s.passes).toBe(0);
    expect(excerptSpan(buildExcerpt([...listed, ...again])!)).toMatch(/^from creation/);
  });
});
