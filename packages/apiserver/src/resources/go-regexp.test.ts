/**
 * CRD patterns match what Go's regexp matches, where JS would read the same text otherwise, and
 * a pattern Go refuses (a cluster refuses its CRD) is not judged.
 */
import { describe, expect, it } from "vitest";
import { goRegExp } from "./go-regexp.ts";

/** [pattern, value, whether Go's regexp.MatchString matches]. */
const GO_MATCHES: [string, string, boolean][] = [
  // What kubebuilder CRDs carry, as JS reads it too.
  ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "my-app", true],
  ["^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "My-App", false],
  ["^(\\d+(\\.\\d+)?)(Mi|Gi)?$", "1.5Gi", true],
  ["[0-9]", "v1", true], // unanchored, as MatchString
  // An escaped punctuation character is itself (JS's `u` mode refuses `\-` and `\_` outside a class).
  ["^a\\-b\\_c$", "a-b_c", true],
  ["^[a-zA-Z0-9\\-]+$", "a-B-9", true],
  // `.` stops at \n only; \s is [\t\n\f\r ].
  ["^.$", "\r", true],
  ["^.$", "\u2028", true],
  ["^.$", "\n", false],
  ["(?s)^.$", "\n", true],
  ["^.$", "😀", true],
  ["^\\s$", "\v", false],
  ["^\\s$", "\u00a0", false],
  ["^[\\s,]+$", " ,\t", true],
  // Go's own syntax.
  ["^a\\z", "a", true],
  ["\\Aab", "xab", false],
  ["(?i)^abc$", "ABC", true],
  ["^[[:alpha:]]+$", "abc", true],
  ["^[[:alpha:]]+$", "ab1", false],
  ["^\\Q.*\\E$", ".*", true],
  ["^\\Q.*\\E$", "ab", false],
  ["^\\pL+$", "héllo", true],
  ["^\\p{Greek}+$", "αβγ", true],
  ["^\\P{Greek}+$", "αβγ", false],
  ["^\\101$", "A", true],
  ["^\\x{1F600}$", "😀", true],
  ["^(?P<n>a)$", "a", true],
  // Literal braces and brackets where they are no syntax; `]` first in a class.
  ["^a{$", "a{", true],
  ["^a{,2}$", "a{,2}", true],
  ["^a{2}$", "aa", true],
  ["^a}]$", "a}]", true],
  ["^[]a]+$", "]a", true],
];

describe("goRegExp", () => {
  it.each(GO_MATCHES)("%s against %j: %s", (pattern, value, matches) => {
    expect(goRegExp(pattern)?.test(value)).toBe(matches);
  });

  it.each([
    ["^(?=a)", "lookahead: Go refuses it"],
    ["^(a)\\1$", "a backreference: Go refuses it"],
    ["^a\\Z", "\\Z: Go refuses it"],
    ["^[a-z", "an unclosed class"],
    ["^a{1001}$", "a repeat count over 1000"],
    ["(?i:a)b", "a flag group inside the pattern: no JS form"],
    ["^[^\\S]$", "\\S inside a class: no JS form"],
  ])("does not judge %s (%s)", (pattern) => {
    expect(goRegExp(pattern)).toBeUndefined();
  });
});
