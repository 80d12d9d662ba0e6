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
  metadata: {
    name: "a",
    namespace: "default",
    labels: { app: "web", tier: "front", idx: "5", "example.com/v": "x" },
  },
};

describe("label selectors", () => {
  it.each([
    ["app=web", true],
    ["app==web", true],
    ["app!=web", false],
    ["app in (web, db)", true],
    ["app notin (web)", false],
    ["app in ()", false],
    ["app notin ()", true],
    ["missing in (web,)", false],
    ["missing notin (web,)", true],
    ["tier", true],
    ["!tier", false],
    ["missing!=x", true],
    ["app=web,tier in (back)", false],
    ["idx>3", true],
    ["idx > 5", false],
    ["idx<9", true],
    ["idx<-1", false],
    ["app>1", false],
    ["missing<9", false],
    ["example.com/v=x", true],
    ["", true],
  ])("%s → %s", (sel, expected) => {
    expect(matchesLabels(parseLabelSelector(sel), obj)).toBe(expected);
  });
  it("refuses what does not parse", () => {
    expect(() => parseLabelSelector("app in web")).toThrow(ApiError);
  });
  it.each([
    ["app:web", /Invalid value: "app:web": name part must consist of alphanumeric/],
    ["idx=5$", /Invalid value: "5\$": a valid label must be an empty string/],
    ["app in (web,a b)", /unable to parse requirement/],
    ["idx>x", /for 'Gt', 'Lt' operators, the value must be an integer/],
    [`${"k".repeat(64)}=v`, /name part must be no more than 63 characters/],
  ])("refuses %s: no label has that key or value (a 400, as on a cluster)", (sel, message) => {
    expect(() => parseLabelSelector(sel)).toThrow(message);
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
