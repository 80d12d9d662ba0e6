/** Merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch directives. */
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { applyJsonPatch } from "./json-patch.ts";
import { applyMergePatch } from "./merge-patch.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";

describe("merge patch", () => {
  it("follows the RFC 7386 examples", () => {
    expect(applyMergePatch({ a: "b", c: { d: "e", f: "g" } }, { a: "z", c: { f: null } })).toEqual({
      a: "z",
      c: { d: "e" },
    });
    expect(applyMergePatch({ a: ["b"] }, { a: ["c", "d"] })).toEqual({ a: ["c", "d"] });
    expect(applyMergePatch({ a: "foo" }, null)).toBeNull();
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
  });
});

describe("JSON patch", () => {
  const doc = { spec: { replicas: 1, list: ["a", "b"] }, metadata: { "a/b": 1 } };
  it("applies add/remove/replace/move/copy/test in order", () => {
    expect(
      applyJsonPatch(doc, [
        { op: "test", path: "/spec/replicas", value: 1 },
        { op: "replace", path: "/spec/replicas", value: 2 },
        { op: "add", path: "/spec/list/-", value: "c" },
        { op: "add", path: "/spec/list/0", value: "z" },
        { op: "remove", path: "/spec/list/1" },
        { op: "copy", from: "/spec/replicas", path: "/spec/copied" },
        { op: "move", from: "/metadata/a~1b", path: "/metadata/moved" },
      ]),
    ).toEqual({ spec: { replicas: 2, list: ["z", "b", "c"], copied: 2 }, metadata: { moved: 1 } });
    expect(doc.spec.replicas).toBe(1);
  });
  it("rejects a failing test or a missing path with 422", () => {
    for (const patch of [
      [{ op: "test", path: "/spec/replicas", value: 9 }],
      [{ op: "remove", path: "/nope/x" }],
      { op: "add" },
    ]) {
      expect(() => applyJsonPatch(doc, patch)).toThrow(ApiError);
    }
  });
});

describe("strategic merge patch", () => {
  const deployment = {
    metadata: { finalizers: ["a"], labels: { x: "1" } },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: "nginx",
              image: "nginx:1.24",
              env: [{ name: "A", value: "1" }],
              ports: [{ containerPort: 80 }],
            },
            { name: "sidecar", image: "busybox" },
          ],
          tolerations: [{ key: "k" }],
        },
      },
    },
  };

  it("merges lists by their merge key and replaces lists without one", () => {
    const out = applyStrategicMergePatch(deployment, {
      metadata: { finalizers: ["b"], labels: { x: null } },
      spec: {
        template: {
          spec: {
            containers: [{ name: "nginx", image: "nginx:1.25", env: [{ name: "B", value: "2" }] }],
            tolerations: [{ key: "other" }],
          },
        },
      },
    }) as typeof deployment;
    expect(out.metadata).toEqual({ finalizers: ["a", "b"], labels: {} });
    expect(out.spec.template.spec.containers).toEqual([
      {
        name: "nginx",
        image: "nginx:1.25",
        env: [
          { name: "A", value: "1" },
          { name: "B", value: "2" },
        ],
        ports: [{ containerPort: 80 }],
      },
      { name: "sidecar", image: "busybox" },
    ]);
    expect(out.spec.template.spec.tolerations).toEqual([{ key: "other" }]);
  });

  it("honours $patch delete/replace, $setElementOrder, $retainKeys and $deleteFromPrimitiveList", () => {
    const out = applyStrategicMergePatch(deployment, {
      metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] },
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [{ name: "sidecar" }, { name: "nginx" }],
            containers: [
              { name: "nginx", $patch: "delete" },
              { name: "sidecar", image: "busybox:2", $retainKeys: ["name", "image"] },
            ],
          },
          metadata: { $patch: "replace", labels: { only: "this" } },
        },
      },
    }) as {
      metadata: { finalizers: string[] };
      spec: { template: { metadata: unknown; spec: { containers: unknown[] } } };
    };
    expect(out.metadata.finalizers).toEqual([]);
    expect(out.spec.template.spec.containers).toEqual([{ name: "sidecar", image: "busybox:2" }]);
    expect(out.spec.template.metadata).toEqual({ labels: { only: "this" } });
    expect(JSON.stringify(out)).not.toContain("$");
  });

  it("orders items by $setElementOrder after an insert", () => {
    const out = applyStrategicMergePatch(deployment, {
      spec: {
        template: {
          spec: {
            "$setElementOrder/containers": [
              { name: "first" },
              { name: "nginx" },
              { name: "sidecar" },
            ],
            containers: [{ name: "first", image: "x" }],
          },
        },
      },
    }) as typeof deployment;
    expect(out.spec.template.spec.containers.map((c) => c.name)).toEqual([
      "first",
      "nginx",
      "sidecar",
    ]);
  });
});
