import { describe, expect, it } from "vitest";
import { twoLivesSession } from "../testing/twoLives.ts";
import { aboutEarlierLife } from "./earlierLife.ts";

const KEY = "default/example-foo";

describe("aboutEarlierLife", () => {
  // The recorded create, its Foo created again a minute later.
  const { session, n } = twoLivesSession();
  const conflict = { kind: "conflict", key: KEY, detail: "409", count: 1, lives: 1 } as const;

  it("is about an earlier life only when its latest occurrence is", () => {
    expect(aboutEarlierLife(session, { ...conflict, seq: 5, lastSeq: 5 })).toBe(true);
    expect(aboutEarlierLife(session, { ...conflict, seq: 5, lastSeq: n + 5 })).toBe(false);
    expect(aboutEarlierLife(session, { ...conflict, seq: n + 5, lastSeq: n + 5 })).toBe(false);
    // Findings read from before lastSeq existed: the first occurrence is all there is.
    expect(aboutEarlierLife(session, { ...conflict, seq: 5 })).toBe(true);
  });
});
