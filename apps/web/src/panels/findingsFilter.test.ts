/** The findings list's order: another controller at work first, the rest as the analysis found them. */
import { expect, it } from "vitest";
import type { Finding } from "@loopscope/trace";
import { countByKind, filterFindings, SHOWN_FINDINGS } from "./findingsFilter.ts";

const retry = (i: number): Finding => ({
  kind: "retry",
  key: `default/foo-${i}`,
  detail: "",
  count: 1,
  lives: 1,
});
const other: Finding = {
  kind: "other-controller",
  key: "default/foo-7",
  detail: "another controller is also reconciling Foos on this cluster: sample-controller (…)",
  count: 1,
  lives: 1,
};

it("another controller noticed after thousands of findings is drawn first, and its kind too", () => {
  const findings = [...Array.from({ length: 2000 }, (_, i) => retry(i)), other];
  const shown = filterFindings(findings, {}).slice(0, SHOWN_FINDINGS);
  expect(shown[0]).toBe(other);
  expect(shown[1]).toBe(findings[0]);
  expect(countByKind(findings)).toEqual([
    ["other-controller", 1],
    ["retry", 2000],
  ]);
  expect(filterFindings(findings, { key: "default/foo-7" })).toEqual([other, findings[7]]);
  expect(filterFindings(findings, { kind: "retry" })).toHaveLength(2000);
});
