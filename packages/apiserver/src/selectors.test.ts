/** Label and field selector parsing and matching. */
import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import type { KObject } from "./object.ts";
import {
  formatLabelSelector,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
} from "./selectors.ts";

const obj: KObject = {
  metadata: { name: "a", namespace: "default", labels: { app: "web", tier: "front" } },
};

describe("label selectors", () => {
  it.each([
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app in (web, db)", true],
    ["app notin (web)", false],
    ["tier", true],
    ["!tier", false],
    ["missing!=x", true],
    ["app=web,tier in (back)", false],
    ["", true],
  ])("%s → %s", (sel, expected) => {
    expect(matchesLabels(parseLabelSelector(sel), obj)).toBe(expected);
  });
  it("refuses what does not parse", () => {
    expect(() => parseLabelSelector("app in web")).toThrow(ApiError);
  });
  it("formats metav1.LabelSelector the way kubectl shows it", () => {
    expect(
      formatLabelSelector({
        matchLabels: { b: "2", a: "1" },
        matchExpressions: [
          { key: "c", operator: "In", values: ["y", "x"] },
          { key: "d", operator: "DoesNotExist" },
        ],
      }),
    ).toBe("a=1,b=2,c in (x,y),!d");
  });
});

describe("field selectors", () => {
  const allowed = ["metadata.name", "metadata.namespace"];
  it("matches metadata.name and metadata.namespace", () => {
    expect(matchesFields(parseFieldSelector("metadata.name=a", allowed), obj)).toBe(true);
    expect(
      matchesFields(
        parseFieldSelector("metadata.name=a,metadata.namespace!=default", allowed),
        obj,
      ),
    ).toBe(false);
  });
  it("refuses unsupported fields with 400", () => {
    expect(() => parseFieldSelector("spec.replicas=1", allowed)).toThrow(
      "field label not supported: spec.replicas",
    );
  });
});
