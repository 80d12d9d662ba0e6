import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { UnsequencedEvent } from "@loopscope/trace";
import { changedFields } from "./changed-fields.ts";
import { klogHeader, stageLine } from "./klog.ts";
import { StageProbe } from "./probe.ts";
import { parseFrame, site } from "./site.ts";

const here = fileURLToPath(import.meta.url);
const AT = { a: site(), b: site() };

describe("StageProbe", () => {
  it("records the file:line of the probe call, computed once per site", () => {
    const got: UnsequencedEvent[] = [];
    const probe = new StageProbe({ sink: (e) => void got.push(e) });
    for (let i = 0; i < 3; i++)
      probe.emit(AT.a, { stage: "dequeue", key: "ns/a", len: i, worker: 1 });
    probe.emit(AT.b, { stage: "read", key: "ns/a", rv: "7" });
    const lines = readFileSync(here, "utf8").split("\n");
    for (const e of got) {
      const [file, line] = (e.src as string).split(":");
      expect(file).toBe("probe.test.ts");
      expect(lines[Number(line) - 1]).toContain("probe.emit(");
    }
    expect(got[0]?.src).toBe(got[2]?.src);
    expect(got[0]?.src).not.toBe(got[3]?.src);
  });

  it("returns the sink's seq when it assigns one, else a 1-based ordinal", () => {
    let seq = 100;
    const withSeq = new StageProbe({ sink: () => ++seq });
    expect(withSeq.emit(AT.a, { stage: "dequeue", key: "k" })).toBe(101);
    const plain = new StageProbe({ sink: () => {} });
    expect(plain.emit(AT.a, { stage: "dequeue", key: "k" })).toBe(1);
    expect(plain.emit(AT.a, { stage: "dequeue", key: "k" })).toBe(2);
  });

  it("is off without sink or klog, and stamps µs timestamps", () => {
    expect(new StageProbe().on).toBe(false);
    const got: UnsequencedEvent[] = [];
    const p = new StageProbe({ sink: (e) => void got.push(e) });
    const before = Date.now() * 1000;
    p.emit(AT.a, { stage: "dequeue", key: "k" });
    expect(got[0]?.ts).toBeGreaterThanOrEqual(before - 1000);
    expect(got[0]?.ts).toBeLessThan((Date.now() + 1000) * 1000);
  });

  it("writes canonical klog STAGE lines at verbosity 2", () => {
    const lines: string[] = [];
    const p = new StageProbe({ klog: (l) => lines.push(l), verbosity: 2 });
    p.emit(AT.a, {
      stage: "watch",
      kind: "Foo",
      event: "add",
      key: "default/example-foo",
      ns: "default",
      name: "example-foo",
      rv: "1001",
    });
    p.emit(AT.a, {
      stage: "enqueue",
      key: "default/example-foo",
      len: 1,
      merged: false,
      cause: "watch",
    });
    p.emit(AT.a, {
      stage: "write",
      key: "default/example-foo",
      verb: "create",
      target: "deployments/default/example-foo",
      rv: "1002",
      code: 201,
      changed: true,
    });
    const header = /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ probe\.test\.ts:\d+\] /;
    for (const l of lines) expect(l).toMatch(header);
    expect(lines[0]).toMatch(
      /\] STAGE\/watch kind=Foo event=add key=default\/example-foo ns=default name=example-foo rv=1001$/,
    );
    expect(lines[1]).toMatch(/\] STAGE\/enqueue key=default\/example-foo len=1 cause=watch$/);
    expect(lines[2]).toMatch(
      /\] STAGE\/write verb=create target=deployments\/default\/example-foo rv=1002 code=201 changed=true key=default\/example-foo$/,
    );
    const quiet = new StageProbe({ klog: (l) => lines.push(l), verbosity: 0 });
    expect(quiet.on).toBe(false);
  });

  it("pads the pid to 7 columns like klog", () => {
    const ts = new Date(2026, 11, 2, 9, 14, 6).getTime() * 1000 + 31344;
    expect(klogHeader("I", ts, "controller.go:131", 48211)).toBe(
      "I1202 09:14:06.031344   48211 controller.go:131] ",
    );
    expect(stageLine({ stage: "note", key: "", ts, text: "x" }, 1)).toBeUndefined();
  });
});

describe("parseFrame", () => {
  it("reads node and file URL frames", () => {
    expect(parseFrame("    at FooController.x (/work/a/foo-controller.ts:131:7)")).toBe(
      "foo-controller.ts:131",
    );
    expect(parseFrame("    at file:///work/a/b.ts:12:3")).toBe("b.ts:12");
    expect(parseFrame("nonsense")).toBeUndefined();
  });
});

describe("changedFields", () => {
  it("lists only differing paths the sender set, ignoring server-owned metadata", () => {
    const had = {
      metadata: { name: "d", resourceVersion: "5", uid: "u" },
      spec: {
        replicas: 1,
        template: { spec: { containers: [{ name: "n", image: "a", imagePullPolicy: "Always" }] } },
      },
    };
    const sent = {
      metadata: { name: "d" },
      spec: { replicas: 3, template: { spec: { containers: [{ name: "n", image: "b" }] } } },
    };
    expect(changedFields(sent, had)).toEqual([
      "spec.replicas",
      "spec.template.spec.containers[0].image",
    ]);
    expect(changedFields(had, had)).toEqual([]);
  });

  it("lists the leaves of a new subtree, and compares Dates with strings as instants", () => {
    expect(changedFields({ availableReplicas: 0 }, undefined, "status")).toEqual([
      "status.availableReplicas",
    ]);
    expect(
      changedFields({ t: new Date("2026-01-01T00:00:00Z") }, { t: "2026-01-01T00:00:00Z" }),
    ).toEqual([]);
    expect(
      changedFields(
        { lastSyncedAt: "b", availableReplicas: 1 },
        { lastSyncedAt: "a", availableReplicas: 1 },
        "status",
      ),
    ).toEqual(["status.lastSyncedAt"]);
  });
});

describe("probe call sites", () => {
  it("gives every call site of the Foo controller a Site cell of its own (a shared cell labels both with one line)", () => {
    const source = readFileSync(new URL("../foo-controller.ts", import.meta.url), "utf8");
    const declared = [...source.matchAll(/^ {2}(\w+): site\(\),$/gm)].map((m) => m[1]!);
    expect(declared.length).toBeGreaterThan(20);
    const shared = declared.filter(
      (name) => source.split(new RegExp(`\\bAT\\.${name}\\b`)).length - 1 !== 1,
    );
    expect(shared).toEqual([]);
  });
});
