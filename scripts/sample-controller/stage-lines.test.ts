/**
 * The STAGE-line patch for the real Go sample-controller: a well-formed unified diff that adds
 * the canonical STAGE lines and changes nothing else, and whose lines — rendered the way Go's
 * fmt would with sample values, under a klog header carrying the patched file's real line
 * number — read back through packages/trace into the intended stage and fields.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Analyzer, readTraceText, type TraceEvent } from "../../packages/trace/src/index.ts";

const patch = readFileSync(fileURLToPath(new URL("./stage-lines.patch", import.meta.url)), "utf8");

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: string[];
}

function parseHunks(text: string): { files: string[]; hunks: Hunk[] } {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("diff --git "));
  const files: string[] = [];
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  for (const l of lines.slice(start)) {
    const h = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(l);
    if (h) {
      cur = { oldStart: +h[1], oldCount: +h[2], newStart: +h[3], newCount: +h[4], lines: [] };
      hunks.push(cur);
    } else if (l.startsWith("diff --git ")) {
      files.push(l);
      cur = undefined;
    } else if (cur && /^[ +-]/.test(l)) cur.lines.push(l);
    else if (cur && l === "") cur = undefined;
  }
  return { files, hunks };
}

/** Each added line with its line number in the patched file. */
function addedLines(hunks: Hunk[]): Array<{ text: string; newLine: number }> {
  const out: Array<{ text: string; newLine: number }> = [];
  for (const h of hunks) {
    let n = h.newStart;
    for (const l of h.lines) {
      if (l.startsWith("+")) out.push({ text: l.slice(1), newLine: n++ });
      else if (l.startsWith(" ")) n++;
    }
  }
  return out;
}

/** Reads the Go string literal starting at `at` (a '"'); returns its value and where it ends. */
function goString(s: string, at: number): { value: string; end: number } {
  let v = "";
  let i = at + 1;
  while (s[i] !== '"') {
    if (s[i] === "\\") {
      v += s[i + 1] === "n" ? "\n" : s[i + 1];
      i += 2;
    } else v += s[i++];
  }
  return { value: v, end: i + 1 };
}

/** Splits Go call arguments at top-level commas. */
function goArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of s) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === "," && depth === 0) {
      out.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Go's fmt for the verbs the patch uses (%s of strings and Stringers, %d, %q, %t of bools). */
function sprintf(format: string, values: Array<string | number | boolean>): string {
  let i = 0;
  return format.replace(/%([sdqtv%])/g, (_m, verb: string) => {
    if (verb === "%") return "%";
    const v = values[i++];
    if (v === undefined) throw new Error(`missing value for %${verb} in ${format}`);
    return verb === "q" ? JSON.stringify(String(v)) : String(v);
  });
}

/** What each argument expression of the patch evaluates to in the sample scenario. */
const SAMPLE: Record<string, string | number | boolean> = {
  "klog.KObj(foo)": "default/example-foo",
  "klog.KObj(newFoo)": "default/example-foo",
  "foo.ResourceVersion": "1001",
  "newFoo.ResourceVersion": "1003",
  "oldFoo.ResourceVersion": "1001",
  objRef: "default/example-foo",
  objectRef: "default/example-foo",
  "c.workqueue.Len()": 1,
  "foo.Generation": 2,
  "foo.Namespace": "default",
  "foo.Name": "example-foo",
  deploymentName: "example-foo",
  "deployment.ResourceVersion": "1002",
  "updated.ResourceVersion": "1004",
  "errors.ReasonForError(err)": "",
  event: "update",
  "object.GetNamespace()": "default",
  "object.GetName()": "example-foo",
  "object.GetResourceVersion()": "1005",
  isInInitialList: false,
  initial: false,
};

/** The stage and fields each STAGE line must produce (success path). */
const INTENDED: Array<Partial<TraceEvent> & Record<string, unknown>> = [
  { stage: "watch", kind: "Foo", event: "add", key: "default/example-foo", rv: "1001" },
  {
    stage: "watch",
    kind: "Foo",
    event: "update",
    key: "default/example-foo",
    rv: "1003",
    oldRv: "1001",
  },
  { stage: "dequeue", key: "default/example-foo", len: 1 },
  { stage: "read", key: "default/example-foo", found: false },
  { stage: "read", key: "default/example-foo", rv: "1001", generation: 2 },
  {
    stage: "write",
    key: "default/example-foo",
    verb: "create",
    target: "deployments/default/example-foo",
    rv: "1002",
  },
  {
    stage: "write",
    key: "default/example-foo",
    verb: "update",
    target: "deployments/default/example-foo",
    rv: "1002",
  },
  {
    stage: "write",
    key: "default/example-foo",
    verb: "updateStatus",
    target: "foos/default/example-foo/status",
    rv: "1004",
  },
  { stage: "enqueue", key: "default/example-foo", len: 1 },
  {
    stage: "watch",
    kind: "Deployment",
    event: "update",
    key: "",
    ns: "default",
    name: "example-foo",
    rv: "1005",
  },
  {
    stage: "watch",
    kind: "Deployment",
    event: "update",
    key: "default/example-foo",
    ns: "default",
    name: "example-foo",
    rv: "1005",
  },
];

const { files, hunks } = parseHunks(patch);
const stageLines = addedLines(hunks).filter((l) => l.text.includes("STAGE/"));

function render(text: string, sample: Record<string, string | number | boolean>): string {
  const call = text.indexOf("klog.Infof(");
  expect(call, text).toBeGreaterThanOrEqual(0);
  const lit = goString(text, call + "klog.Infof(".length);
  const rest = text.slice(lit.end).replace(/\)\s*$/, "");
  const args = goArgs(rest.replace(/^\s*,/, ""));
  const values = args.map((a) => {
    if (!(a in sample)) throw new Error(`no sample value for ${a}`);
    return sample[a];
  });
  return sprintf(lit.value, values);
}

/** One klog line as the real binary prints it: header with the patched file's line number. */
function klogLine(msg: string, line: number): string {
  return `I1202 09:14:06.031344   48211 controller.go:${line}] ${msg}`;
}

function readOne(line: string): TraceEvent {
  const { events, reader } = readTraceText(line + "\n", { year: 2026 });
  expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
  expect(events).toHaveLength(1);
  return events[0];
}

describe("stage-lines.patch", () => {
  it("is a well-formed unified diff of controller.go whose hunk counts add up", () => {
    expect(files).toEqual(["diff --git a/controller.go b/controller.go"]);
    expect(patch).toContain("--- a/controller.go\n+++ b/controller.go\n");
    expect(hunks.length).toBeGreaterThan(0);
    let delta = 0;
    let prevEnd = 0;
    for (const h of hunks) {
      const ctx = h.lines.filter((l) => l.startsWith(" ")).length;
      const del = h.lines.filter((l) => l.startsWith("-")).length;
      const add = h.lines.filter((l) => l.startsWith("+")).length;
      expect(ctx + del, `old count of hunk at ${h.oldStart}`).toBe(h.oldCount);
      expect(ctx + add, `new count of hunk at ${h.oldStart}`).toBe(h.newCount);
      expect(h.newStart, `new start of hunk at ${h.oldStart}`).toBe(h.oldStart + delta);
      expect(h.oldStart).toBeGreaterThan(prevEnd);
      prevEnd = h.oldStart + h.oldCount - 1;
      delta += add - del;
    }
  });

  it("adds a STAGE line at each of the five places and changes nothing else", () => {
    expect(stageLines).toHaveLength(INTENDED.length);
    const removed = hunks.flatMap((h) =>
      h.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1).trim()),
    );
    // Only what carrying the values to the log needs: the handlers become the detailed kind
    // (whose add says isInInitialList) and method values closures, handleObject learns which
    // event it handles, UpdateStatus's result is kept.
    expect(removed).toEqual([
      "fooInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{",
      "AddFunc: controller.enqueueFoo,",
      "deploymentInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{",
      "AddFunc: controller.handleObject,",
      "controller.handleObject(new)",
      "DeleteFunc: controller.handleObject,",
      "_, err := c.sampleclientset.SamplecontrollerV1alpha1().Foos(foo.Namespace).UpdateStatus(ctx, fooCopy, metav1.UpdateOptions{FieldManager: FieldManager})",
      "func (c *Controller) handleObject(obj interface{}) {",
    ]);
    for (const l of stageLines)
      expect(l.text.trim()).toMatch(/^klog\.Infof\("STAGE\/(watch|enqueue|dequeue|read|write) /);
  });

  it("prints lines that packages/trace reads into the intended stage and fields", () => {
    stageLines.forEach((l, i) => {
      const msg = render(l.text, SAMPLE);
      const e = readOne(klogLine(msg, l.newLine));
      expect(e, msg).toMatchObject(INTENDED[i]);
      expect(e.src).toBe(`controller.go:${l.newLine}`);
      expect(e.extra, msg).toBeUndefined();
      if (e.stage === "write") expect(e, "no error reason on success").not.toHaveProperty("reason");
    });
  });

  it("says which adds came from the informer's initial list, and the analysis counts that Foo as listed", () => {
    const adds = stageLines.filter((l) => /event=add|event=%s/.test(l.text));
    expect(adds).toHaveLength(3); // the Foo's add, the Deployment's two (owner found or not)
    for (const l of adds) {
      const listed = readOne(
        klogLine(
          render(l.text, { ...SAMPLE, isInInitialList: true, initial: true, event: "add" }),
          l.newLine,
        ),
      );
      expect(listed).toMatchObject({ stage: "watch", event: "add", initial: true });
      const created = readOne(klogLine(render(l.text, { ...SAMPLE, event: "add" }), l.newLine));
      expect(created.stage === "watch" && created.initial).toBeFalsy();
    }
    const fooAdd = adds.find((l) => l.text.includes("kind=Foo"))!;
    const a = new Analyzer();
    a.push(
      readOne(klogLine(render(fooAdd.text, { ...SAMPLE, isInInitialList: true }), fooAdd.newLine)),
    );
    expect(a.summary("default/example-foo")?.listed).toBe(true);
  });

  it("names the Foo on a write of its Deployment, whatever spec.deploymentName says", () => {
    const writes = stageLines.filter((l) => l.text.includes("target=deployments/"));
    expect(writes).toHaveLength(2);
    for (const w of writes) {
      const e = readOne(klogLine(render(w.text, { ...SAMPLE, deploymentName: "web" }), w.newLine));
      expect(e).toMatchObject({ key: "default/example-foo", target: "deployments/default/web" });
    }
  });

  it("carries the API's error reason on a failed write", () => {
    const writes = stageLines.filter((l) => l.text.includes("STAGE/write"));
    expect(writes).toHaveLength(3);
    for (const w of writes) {
      const msg = render(w.text, { ...SAMPLE, "errors.ReasonForError(err)": "Conflict" });
      const e = readOne(klogLine(msg, w.newLine));
      expect(e).toMatchObject({ stage: "write", reason: "Conflict" });
    }
  });

  it("prints what the analysis needs to find self-triggered passes exactly, for one create", () => {
    /** The patch line containing `marker`, rendered with these values, at second `s`. */
    const at = (marker: string, s: number, values: Record<string, string | number | boolean>) => {
      const l = stageLines.find((x) => x.text.includes(marker))!;
      expect(l, marker).toBeDefined();
      const ts = `09:14:${String(s).padStart(2, "0")}.000000`;
      return `I1202 ${ts}   48211 controller.go:${l.newLine}] ${render(l.text, { ...SAMPLE, ...values })}`;
    };
    const synced = (s: number) =>
      `I1202 09:14:${s}.500000   48211 controller.go:237] "Successfully synced" objectName="default/example-foo"`;
    const depl = "STAGE/watch kind=Deployment event=%s ns=%s name=%s key=%s";
    const log = [
      at("kind=Foo event=add", 10, { "foo.ResourceVersion": "1001" }),
      at("STAGE/enqueue", 10, {}),
      at("STAGE/dequeue", 10, {}),
      at("generation=%d", 10, { "foo.ResourceVersion": "1001" }),
      at("verb=create", 10, { "deployment.ResourceVersion": "1002" }),
      at(depl, 10, { event: "add", "object.GetResourceVersion()": "1002" }),
      at("STAGE/enqueue", 10, {}),
      at("verb=updateStatus", 10, { "updated.ResourceVersion": "1003" }),
      synced(10),
      at("kind=Foo event=update", 11, {
        "newFoo.ResourceVersion": "1003",
        "oldFoo.ResourceVersion": "1001",
      }),
      at("STAGE/enqueue", 11, {}),
      at("STAGE/dequeue", 11, {}),
      at("generation=%d", 11, { "foo.ResourceVersion": "1003" }),
      at("verb=updateStatus", 11, { "updated.ResourceVersion": "1003" }),
      synced(11),
      // The Deployment controller's rollout: another writer.
      at(depl, 12, { event: "update", "object.GetResourceVersion()": "1004" }),
      at("STAGE/enqueue", 12, {}),
      at("STAGE/dequeue", 12, {}),
      at("generation=%d", 12, { "foo.ResourceVersion": "1003" }),
      at("verb=updateStatus", 12, { "updated.ResourceVersion": "1003" }),
      synced(12),
    ].join("\n");
    const { events, reader } = readTraceText(log + "\n", { year: 2026 });
    expect(reader.diagnostics.filter((d) => d.level !== "info")).toEqual([]);
    const a = new Analyzer();
    a.pushAll(events);
    const passes = a.passes("default/example-foo");
    expect(passes.map((p) => [p.cause, p.inferred, p.outcome])).toEqual([
      ["external", false, "synced"],
      ["self", false, "synced"],
      ["external", false, "synced"],
    ]);
    expect(a.summary("default/example-foo")).toMatchObject({
      reconcilesForCreate: 3,
      quiescent: true,
    });
  });
});
