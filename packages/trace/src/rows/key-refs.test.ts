import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { keyRef, keyRefOf, NO_REF, resolveKeyRef, resolveKeyRefs } from "./key-refs.ts";
import { encodeEvent, encodeHeader } from "../jsonl/format.ts";
import type { TraceEvent } from "../event.ts";
import { RowDecoder } from "./row-decoder.ts";
import { RowEncoder } from "./row-encoder.ts";
import { fast } from "../testing/reader-paths.ts";

const utf8 = new TextEncoder();

describe("a detail member that names its row's key", () => {
  it("is the key anywhere in the value, else its name anywhere, else its namespace", () => {
    expect(keyRef("deployments/ns/foo", "ns/foo")).toEqual({
      ref: "key",
      before: "deployments/",
      after: "",
    });
    expect(keyRef("foos/ns/foo/status", "ns/foo")).toEqual({
      ref: "key",
      before: "foos/",
      after: "/status",
    });
    expect(keyRef('on foos.x.io "foo": modified', "ns/foo")).toEqual({
      ref: "name",
      before: 'on foos.x.io "',
      after: '": modified',
    });
    expect(keyRef("foo", "ns/foo")).toEqual({ ref: "name", before: "", after: "" });
    expect(keyRef("ns", "ns/foo")).toEqual({ ref: "ns", before: "", after: "" });
    // The first place it is; no part of a key without a namespace, or with an empty part.
    expect(keyRef("a/ba/b", "a/b")).toEqual({ ref: "key", before: "", after: "a/b" });
    for (const [value, key] of [
      ["x", "/x"],
      ["ns", "ns/"],
      ["anything", ""],
      ["fo", "ns/foo"],
      ["the ns", "ns/foo"],
      ["foos", "ns/foo"],
      ['"foo', "ns/foo"],
      ["solo", "solo/"],
    ]) {
      expect(keyRefOf(value, key), `${value} on ${key}`).toBe(NO_REF);
    }
  });

  it("stands for exactly the value, whatever the key and value", () => {
    const text = fc.stringMatching(/^[ab/ü"\\]{0,8}$/);
    fc.assert(
      fc.property(text, text, (value, key) => {
        const ref = keyRef(value, key);
        if (ref !== undefined) expect(resolveKeyRef(ref, key)).toBe(value);
        // Through the detail text a row holds, and back.
        const members = JSON.parse(JSON.stringify({ target: ref ?? value })) as Record<
          string,
          unknown
        >;
        expect(resolveKeyRefs(members, key)).toEqual({ target: value });
      }),
    );
  });

  it("lets every Foo's lines share their details, on each reader path", () => {
    const shapes = (foos: number) => {
      const lines: string[] = [];
      for (let i = 0; i < foos; i++) {
        const key = `ns-${i % 7}/foo-${i}`;
        lines.push(
          `I1202 09:00:00.000001    1 c.go:1] STAGE/watch kind=Foo event=add key=${key} rv=${i + 10}`,
          `I1202 09:00:00.000002    1 c.go:2] STAGE/write verb=create target=deployments/${key} rv=${i + 11} code=201 changed=true`,
          `I1202 09:00:00.000003    1 c.go:3] STAGE/write verb=updateStatus target=foos/${key}/status rv=${i + 12} code=200 changed=true`,
          `I1202 09:00:00.000004    1 c.go:4] STAGE/watch kind=Deployment event=add key=${key} name=foo-${i} ns=ns-${i % 7} rv=${i + 13}`,
          `E1202 09:00:00.000005    1 controller.go:228] error syncing '${key}': Operation cannot be fulfilled on foos.samplecontroller.k8s.io "foo-${i}": the object has been modified; please apply your changes to the latest version and try again, requeuing`,
        );
      }
      return lines;
    };
    const klog = (foos: number) => fast([utf8.encode(shapes(foos).join("\n") + "\n")]).batch;
    const jsonl = (foos: number) => {
      const events = fast([utf8.encode(shapes(foos).join("\n") + "\n")]).batch;
      const text =
        encodeHeader({ source: "t" }) +
        new RowDecoder()
          .decode(events)
          .map((e) => encodeEvent(e))
          .join("");
      return fast([utf8.encode(text)]).batch;
    };
    for (const read of [klog, jsonl]) {
      const few = read(10);
      const many = read(1000);
      expect(many.length).toBe(5000);
      expect(many.newKeys.length).toBe(1000);
      expect(many.newDetails.length).toBe(few.newDetails.length);
      expect(many.newDetails.length).toBeLessThanOrEqual(5);
    }
  });

  it("is resolved when a row becomes an event again", () => {
    const e: TraceEvent = {
      seq: 1,
      ts: 1,
      key: "ns/foo",
      stage: "watch",
      kind: "Deployment",
      event: "update",
      name: "foo",
      ns: "ns",
    };
    const w: TraceEvent = {
      seq: 2,
      ts: 2,
      key: "ns/foo",
      stage: "write",
      verb: "update",
      target: "deployments/ns/foo",
    };
    const batch = new RowEncoder().encode([e, w]);
    expect(batch.newDetails.join()).not.toContain('"foo"');
    expect(new RowDecoder().decode(batch)).toEqual([e, w]);
    const seen: unknown[] = [];
    new RowDecoder().visit(new RowEncoder().encode([e, w]), (x) =>
      seen.push({ name: x.stage === "watch" && x.name, target: x.stage === "write" && x.target }),
    );
    expect(seen).toEqual([
      { name: "foo", target: false },
      { name: false, target: "deployments/ns/foo" },
    ]);
  });
});
