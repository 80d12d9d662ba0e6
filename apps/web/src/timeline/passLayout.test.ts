import { describe, expect, it } from "vitest";
import { twoLivesSession } from "../testing/twoLives.ts";
import { layoutPasses } from "./passLayout.ts";

const KEY = "default/example-foo";

describe("the pass view's times", () => {
  it("count each life of a re-created Foo from its own creation", () => {
    const { session } = twoLivesSession();
    const columns = layoutPasses(session, KEY).columns;
    const second = columns.findIndex((c, i) => i > 0 && c.pass.number === 1);
    expect(second).toBeGreaterThan(0);
    // The second life is the first shifted by a minute: each pass the same time after its creation.
    const first = columns.slice(0, second).map((c) => c.at);
    expect(columns.slice(second).map((c) => c.at)).toEqual(first);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(0);
  });
});
