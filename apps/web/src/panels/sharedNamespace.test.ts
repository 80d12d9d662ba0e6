import { describe, expect, it } from "vitest";
import { sharedNamespace } from "./sharedNamespace.ts";

describe("sharedNamespace", () => {
  it("is the namespace all keys share", () => {
    expect(sharedNamespace(["default/example-foo", "default/burst-1"])).toBe("default/");
    expect(sharedNamespace(["default/a"])).toBe("default/");
  });
  it("is undefined when namespaces differ, a key has none, or there are no keys", () => {
    expect(sharedNamespace(["default/a", "ns-2/b"])).toBeUndefined();
    expect(sharedNamespace(["default/a", "b"])).toBeUndefined();
    expect(sharedNamespace(["default/a", "default-x/b"])).toBeUndefined();
    expect(sharedNamespace([])).toBeUndefined();
  });
});
