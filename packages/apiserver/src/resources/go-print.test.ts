/** Values in a cluster's messages are printed as Go prints them (%v, %q). */
import { describe, expect, it } from "vitest";
import { goNumber, goQuote } from "./go-print.ts";

describe("goNumber", () => {
  it.each([
    [5, "5"],
    [-3, "-3"],
    [2.5, "2.5"],
    [123456.5, "123456.5"],
    [1234567.5, "1.2345675e+06"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [1e21, "1e+21"],
  ])("%d prints %s", (n, printed) => {
    expect(goNumber(n)).toBe(printed);
  });
});

describe("goQuote", () => {
  it("escapes as strconv.Quote: short escapes, control bytes, non-printable runes; keeps printable ones", () => {
    expect(goQuote('a"b\\\n\t\x01\x7f\u00a0\u200bé😀')).toBe(
      '"a\\"b\\\\\\n\\t\\x01\\x7f\\u00a0\\u200bé😀"',
    );
  });
});
