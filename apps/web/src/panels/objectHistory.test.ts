import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { rvHistory } from "./objectHistory.ts";

const TRACE = fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url));
const KEY = "default/example-foo";
const FOO = `Foo ${KEY}`;

/** The recorded create, then the same Foo deleted and created again: new seqs, times and rvs. */
function twoLives(): string {
  const [header, ...lines] = readFileSync(TRACE, "utf8").trim().split("\n");
  const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const n = events.length;
  const later = events.map((e) => {
    const x: Record<string, unknown> = {
      ...e,
      seq: (e.seq as number) + n,
      ts: (e.ts as number) + 60e6,
    };
    for (const f of ["rv", "oldRv"]) if (typeof x[f] === "string") x[f] = `9${x[f] as string}`;
    if (typeof x.causeSeq === "number") x.causeSeq = x.causeSeq + n;
    return x;
  });
  return [header, ...[...events, ...later].map((e) => JSON.stringify(e))].join("\n") + "\n";
}

describe("rvHistory", () => {
  const session = sessionFromText(twoLives(), "two-lives.jsonl");
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
