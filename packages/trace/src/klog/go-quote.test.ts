import { describe, expect, it } from "vitest";
import { readGoQuoted, unquoteGo } from "./go-quote.ts";

describe("Go string literals", () => {
  it("unquotes what strconv.Quote writes", () => {
    expect(unquoteGo(String.raw`"foos.samplecontroller.k8s.io \"x\" not found"`)).toBe(
      'foos.samplecontroller.k8s.io "x" not found',
    );
    expect(unquoteGo(String.raw`"a\\b\tc\nd"`)).toBe("a\\b\tc\nd");
    expect(unquoteGo(String.raw`"\u00e9\U0001F642"`)).toBe("é🙂");
    expect(unquoteGo(String.raw`"\xc3\xa9"`)).toBe("é");
    expect(unquoteGo(String.raw`"\303\251"`)).toBe("é");
  });

  it("reports where a literal ends and refuses broken ones", () => {
    expect(readGoQuoted(String.raw`key="a\"b" rest`, 4)).toEqual({ value: 'a"b', end: 10 });
    expect(readGoQuoted(`"never closed`, 0)).toBeUndefined();
    expect(readGoQuoted(String.raw`"bad \q escape"`, 0)).toBeUndefined();
    expect(unquoteGo("not quoted")).toBe("not quoted");
  });
});
