import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { aboutEarlierLife } from "./earlierLife.ts";

const TRACE = fileURLToPath(new URL("../../../../public/traces/create-foo.jsonl", import.meta.url));
const KEY = "default/example-foo";

describe("aboutEarlierLife", () => {
  // The recorded create, its Foo created again a minute later (new rvs).
  const [header, ...lines] = readFileSync(TRACE, "utf8").trim().split("\n");
  const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const n = events.length;
  const again = events.map((e) => {
    const x: Record<string, unknown> = {
      ...e,
      seq: (e.seq as number) + n,
      ts: (e.ts as number) + 60e6,
    };
    for (const f of ["rv", "oldRv"]) if (typeof x[f] === "string") x[f] = `9${x[f] as string}`;
    if (typeof x.causeSeq === "number") x.causeSeq = x.causeSeq + n;
    return x;
  });
  const text = [header, ...[...events, ...again].map((e) => JSON.stringify(e))].join("\n");
  const session = sessionFromText(text + "\n", "two-lives.jsonl");
  const conflict = { kind: "conflict", key: KEY, detail: "409" } as const;

  it("is about an earlier life only when its latest occurrence is", () => {
    expect(aboutEarlierLife(session, { ...conflict, seq: 5, lastSeq: 5 })).toBe(true);
    expect(aboutEarlierLife(session, { ...conflict, seq: 5, lastSeq: n + 5 })).toBe(false);
    expect(aboutEarlierLife(session, { ...conflict, seq: n + 5, lastSeq: n + 5 })).toBe(false);
    // Findings read from before lastSeq existed: the first occurrence is all there is.
    expect(aboutEarlierLife(session, { ...conflict, seq: 5 })).toBe(true);
  });
});
