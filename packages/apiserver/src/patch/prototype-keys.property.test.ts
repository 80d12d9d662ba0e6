/**
 * Keys that name Object.prototype's members (`__proto__`, `constructor`, `prototype`,
 * `toString`, …) fed everywhere a client's JSON is walked, merged or patched: the merge patch,
 * the strategic merge patch, JSON patch pointers, and the registry's create / patch (clone,
 * schema pruning, defaults, selectors). After each run Object.prototype (and Array.prototype)
 * must be exactly as before, and every such key must come out as a plain own data property,
 * where an implementation on Maps (which has no prototype to confuse) puts it.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { idSource } from "../ids.ts";
import { deepEqual, isPlainObject, type KObject } from "../object.ts";
import { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { fooResource } from "../resources/foo.ts";
import { INITIAL_NAMESPACES, namespaceResource } from "../resources/namespace.ts";
import { ObjectStore } from "../store/object-store.ts";
import { FOO_TYPE } from "../testing/raw-client.ts";
import { patchTypeOf, type PatchType } from "./apply-patch.ts";
import { applyJsonPatch } from "./json-patch.ts";
import { applyMergePatch } from "./merge-patch.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";

const PROTO_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
];
const KEYS = fc.constantFrom(...PROTO_NAMES, "a", "b", "name", "spec", "labels", "x");

/** JSON whose objects are built with own keys only (as JSON.parse builds them). */
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, 1, "v", true),
    fc.array(tie("value"), { maxLength: 3 }),
    fc
      .array(fc.tuple(KEYS, tie("value")), { maxLength: 4 })
      .map((entries) => Object.fromEntries(entries)),
  ),
})).value;
const jsonObject = fc
  .array(fc.tuple(KEYS, json), { maxLength: 5 })
  .map((entries) => Object.fromEntries(entries) as Record<string, unknown>);

/** What Object.prototype and Array.prototype hold now: every own key and its value. */
function prototypes(): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [name, proto] of [
    ["Object", Object.prototype],
    ["Array", Array.prototype],
  ] as const) {
    for (const key of Reflect.ownKeys(proto)) {
      out.push([`${name}.${String(key)}`, (proto as Record<PropertyKey, unknown>)[key]]);
    }
  }
  return out;
}
const pristine = prototypes();

function expectPrototypesUntouched(): void {
  const now = prototypes();
  expect(now.map(([k]) => k)).toEqual(pristine.map(([k]) => k));
  for (const [i, [k, v]] of now.entries())
    if (v !== pristine[i][1]) throw new Error(`${k} changed`);
}

/** Every object in `v` is a plain object or array with the usual prototype: no key became one. */
function expectPlain(v: unknown): void {
  if (Array.isArray(v)) {
    expect(Object.getPrototypeOf(v)).toBe(Array.prototype);
    v.forEach(expectPlain);
  } else if (typeof v === "object" && v !== null) {
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    for (const key of Object.keys(v)) {
      expect(Object.getOwnPropertyDescriptor(v, key)).toHaveProperty("value");
      expectPlain((v as Record<string, unknown>)[key]);
    }
  }
}

// ---- the reference: RFC 7386 on Maps, turned back into own-key objects ----------------------

type MapJson = unknown;
function toMaps(v: unknown): MapJson {
  if (Array.isArray(v)) return v.map(toMaps);
  if (isPlainObject(v)) return new Map(Object.keys(v).map((k) => [k, toMaps(v[k])]));
  return v;
}
function fromMaps(v: MapJson): unknown {
  if (Array.isArray(v)) return v.map(fromMaps);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, fromMaps(x)]));
  return v;
}
function mergeOnMaps(target: MapJson, patch: MapJson): MapJson {
  if (!(patch instanceof Map)) return patch;
  const out = new Map(target instanceof Map ? target : []);
  for (const [k, v] of patch) {
    if (v === null) out.delete(k);
    else out.set(k, mergeOnMaps(out.get(k), v));
  }
  return out;
}

/** A pointer walk on Maps: the value at `tokens`, or `missing`. */
const missing = Symbol("missing");
function atPointer(doc: MapJson, tokens: string[]): unknown {
  let cur = doc;
  for (const t of tokens) {
    if (cur instanceof Map && cur.has(t)) cur = cur.get(t);
    else if (Array.isArray(cur) && /^\d+$/.test(t) && Number(t) < cur.length) cur = cur[Number(t)];
    else return missing;
  }
  return cur;
}

afterEach(expectPrototypesUntouched);

describe("prototype-named keys are plain data", () => {
  it("merge patch: the result equals RFC 7386 on Maps", () => {
    fc.assert(
      fc.property(jsonObject, json, (target, patch) => {
        const out = applyMergePatch(target, patch);
        expectPrototypesUntouched();
        expectPlain(out);
        expect(deepEqual(out, fromMaps(mergeOnMaps(toMaps(target), toMaps(patch))))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("strategic merge patch: without lists or directives, the same as merge patch", () => {
    const mapsOnly = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, 1, "v"),
        fc.array(fc.tuple(KEYS, tie("value")), { maxLength: 4 }).map((e) => Object.fromEntries(e)),
      ),
    })).value;
    fc.assert(
      fc.property(jsonObject, mapsOnly, (target, patch) => {
        fc.pre(isPlainObject(patch));
        const out = applyStrategicMergePatch(target, patch);
        expectPrototypesUntouched();
        expectPlain(out);
        const want = fromMaps(mergeOnMaps(toMaps(target), toMaps(patch)));
        expect(deepEqual(out, want)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("strategic merge patch: list items merge by a merge key whose value is a prototype name", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PROTO_NAMES), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...PROTO_NAMES), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...PROTO_NAMES, "image"),
        (had, patched, field) => {
          const target = { containers: [...new Set(had)].map((name) => ({ name, old: 1 })) };
          const patch = {
            containers: patched.map((name) => ({ name, [field]: "p" })),
            [`$setElementOrder/${field}`]: [{ name: "x" }],
            [`$deleteFromPrimitiveList/${field}`]: ["x"],
            $retainKeys: ["containers", field],
          };
          const out = applyStrategicMergePatch(target, patch) as {
            containers: Record<string, unknown>[];
          };
          expectPrototypesUntouched();
          expectPlain(out);
          const names = out.containers.map((c) => c.name);
          expect(new Set(names)).toEqual(new Set([...had, ...patched]));
          expect(names.length).toBe(new Set(names).size);
          for (const name of patched) {
            const c = out.containers.find((x) => x.name === name)!;
            expect(Object.hasOwn(c, field) && c[field]).toBe("p");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("JSON patch: pointers follow own keys only; what an op writes is where a Map walk finds it", () => {
    const token = fc.oneof(KEYS, fc.constantFrom("0", "1", "-"));
    const pointer = fc.array(token, { minLength: 0, maxLength: 4 }).map((t) => t);
    const op = fc.oneof(
      fc.record({ op: fc.constant("add"), path: pointer, value: json }),
      fc.record({ op: fc.constant("replace"), path: pointer, value: json }),
      fc.record({ op: fc.constant("remove"), path: pointer }),
      fc.record({ op: fc.constant("copy"), path: pointer, from: pointer }),
      fc.record({ op: fc.constant("move"), path: pointer, from: pointer }),
      fc.record({ op: fc.constant("test"), path: pointer, value: json }),
    );
    const str = (tokens: string[]) => tokens.map((t) => `/${t}`).join("");
    fc.assert(
      fc.property(jsonObject, fc.array(op, { minLength: 1, maxLength: 4 }), (target, ops) => {
        const patch = ops.map((o) => ({
          ...o,
          path: str(o.path),
          ...("from" in o ? { from: str(o.from) } : {}),
        }));
        let out: unknown;
        try {
          out = applyJsonPatch(target, patch);
        } catch (e) {
          // A path that does not exist is the client's error, never a crash.
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status.code).toBe(422);
          expectPrototypesUntouched();
          return;
        }
        expectPrototypesUntouched();
        expectPlain(out);
        // The last add/replace put its value where a walk of own keys finds it (unless a
        // later op removed or moved it: then nothing is claimed).
        const last = ops[ops.length - 1];
        if ((last.op === "add" || last.op === "replace") && !last.path.includes("-")) {
          const found = atPointer(toMaps(out), last.path);
          expect(found).not.toBe(missing);
          expect(deepEqual(fromMaps(found), last.value)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("the exact patch of the issue is a 422 missing path, and names a key only when it exists", () => {
    const doc = { metadata: { name: "f" } };
    for (const path of ["/__proto__/x", "/constructor/x", "/metadata/toString/x"]) {
      expect(() => applyJsonPatch(doc, [{ op: "add", path, value: "1" }])).toThrow(/missing path/);
    }
    const out = applyJsonPatch(doc, [
      { op: "add", path: "/metadata/__proto__", value: { x: "1" } },
      { op: "add", path: "/metadata/__proto__/y", value: "2" },
      { op: "add", path: "/constructor", value: "c" },
    ]) as { metadata: Record<string, unknown>; constructor: unknown };
    expect(Object.getOwnPropertyDescriptor(out.metadata, "__proto__")?.value).toEqual({
      x: "1",
      y: "2",
    });
    expect(Object.getPrototypeOf(out.metadata)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "constructor") && out.constructor).toBe("c");
  });
});

describe("the registry keeps prototype-named keys as data or drops them as a cluster would", () => {
  function registry(): Registry {
    const r = new Registry(new ObjectStore(100), idSource(7));
    for (const name of INITIAL_NAMESPACES)
      r.create(namespaceResource, undefined, { metadata: { name } });
    // Foos are served, and pruned by its schema, while their CRD exists.
    r.seedFooCrd();
    return r;
  }

  it("patches of every type on Foos and Deployments: prototypes untouched, labels kept as data", () => {
    const types: PatchType[] = ["merge", "json", "strategic"];
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.boolean(),
        fc.dictionary(KEYS, fc.constantFrom("v", "w"), { maxKeys: 4 }),
        jsonObject,
        (type, deployment, labels, spec) => {
          const r = registry();
          const def = deployment ? deploymentResource : fooResource;
          if (type === "strategic" && !deployment) return;
          const base: KObject = deployment
            ? {
                metadata: { name: "d", labels: { app: "d" } },
                spec: {
                  selector: { matchLabels: { app: "d" } },
                  template: {
                    metadata: { labels: { app: "d" } },
                    spec: { containers: [{ name: "c", image: "i" }] },
                  },
                },
              }
            : { ...FOO_TYPE, metadata: { name: "f" }, spec: { replicas: 1 } };
          r.create(def, "default", base);
          const patch =
            type === "json"
              ? Object.entries(labels).map(([k, v]) => ({
                  op: "add",
                  path: `/metadata/labels/${k}`,
                  value: v,
                }))
              : { metadata: { labels }, spec };
          if (type === "json" && !deployment)
            (patch as unknown[]).unshift({ op: "add", path: "/metadata/labels", value: {} });
          let out: KObject;
          try {
            out = r.patch(def, "default", base.metadata.name!, type, patch);
          } catch (e) {
            expect(e).toBeInstanceOf(ApiError);
            expect((e as ApiError).status.code).toBeLessThan(500);
            return;
          }
          expectPrototypesUntouched();
          expectPlain(out);
          for (const [k, v] of Object.entries(labels)) {
            expect(Object.getOwnPropertyDescriptor(out.metadata.labels, k)?.value).toBe(v);
          }
          // The selector sees those labels as data, and Object.prototype's members as nothing;
          // a name no label key could be (`__proto__`) is a selector refused, as on a cluster.
          for (const k of PROTO_NAMES) {
            let sel;
            try {
              sel = r.selector(def, k);
            } catch (e) {
              expect((e as ApiError).status.code).toBe(400);
              expect(Object.hasOwn(labels, k)).toBe(false);
              continue;
            }
            const found = r.list(def, "default", sel).items.length;
            expect(found).toBe(Object.hasOwn(labels, k) ? 1 : 0);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a Foo's undeclared fields named like prototype members are pruned (Strict: refused)", () => {
    const r = registry();
    const spec = JSON.parse(
      '{"replicas":1,"__proto__":{"x":1},"constructor":{"y":2},"toString":"s"}',
    ) as Record<string, unknown>;
    const foo = r.create(fooResource, "default", { ...FOO_TYPE, metadata: { name: "f" }, spec });
    expect(Object.keys(foo.spec as object)).toEqual(["replicas"]);
    expect(() =>
      r.create(
        fooResource,
        "default",
        { ...FOO_TYPE, metadata: { name: "g" }, spec },
        { fieldValidation: "Strict" },
      ),
    ).toThrow(/unknown field "spec.__proto__", unknown field "spec.constructor"/);
  });

  it("undeclared metadata fields named like prototype members are dropped (Strict: refused)", () => {
    const r = registry();
    const metadata = () =>
      JSON.parse('{"name":"m","__proto__":{"x":1},"constructor":"c"}') as Record<string, unknown>;
    const ns = r.create(namespaceResource, undefined, { metadata: metadata() });
    expect(Object.keys(ns.metadata).sort()).toEqual([
      "creationTimestamp",
      "labels",
      "name",
      "resourceVersion",
      "uid",
    ]);
    expect(Object.getPrototypeOf(ns.metadata)).toBe(Object.prototype);
    expect(() =>
      r.create(
        namespaceResource,
        undefined,
        { metadata: { ...metadata(), name: "n" } },
        { fieldValidation: "Strict" },
      ),
    ).toThrow(/unknown field "metadata.__proto__", unknown field "metadata.constructor"/);
  });

  it("a patch Content-Type named like a member is an unknown media type (415)", () => {
    for (const media of ["constructor", "toString", "__proto__"]) {
      expect(() => patchTypeOf(media, fooResource)).toThrow(/unknown format/);
    }
  });
});
