import { describe, expect, it } from "vitest";
import { parkedText } from "./MachineryDiagram.tsx";

describe("the diagram's parked keys", () => {
  it("are whole names, then how many more: never cut without saying so", () => {
    const four = ["default/burst-01", "default/burst-02", "default/burst-03", "default/burst-04"];
    expect(parkedText(four, undefined)).toBe("default/burst-01, +3 more");
    expect(parkedText(four, undefined, 60)).toBe("default/burst-01, default/burst-02, +2 more");
    expect(parkedText(four.slice(0, 2), undefined)).toBe("default/burst-01, default/burst-02");
    expect(parkedText([], undefined)).toBe("—");
  });

  it("put the focused Foo's key first", () => {
    const four = ["default/burst-01", "default/burst-02", "default/burst-03", "default/burst-04"];
    expect(parkedText(four, "default/burst-03")).toBe("default/burst-03, +3 more");
  });

  it("cut one name too long for the line alone, with an ellipsis", () => {
    const long = "team-platform-production/a-very-long-foo-name";
    const said = parkedText([long, "default/x"], undefined);
    expect(said.length).toBeLessThanOrEqual(34);
    expect(said).toMatch(/^team-platform-.*…, \+1 more$/);
  });
});
