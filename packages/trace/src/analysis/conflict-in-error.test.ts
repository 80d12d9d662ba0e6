/**
 * An unpatched sample-controller logs no writes: a 409 shows only in the error its pass ended
 * with. Every spelling of its error line (reference: sample-controller.md §1.5) counts it as a
 * conflict, once — also in a patched log, whose write line already said 409.
 */
import { describe, expect, it } from "vitest";
import { analyze } from "../testing/fixtures.ts";
import { statusInError } from "./error-status.ts";

const MODIFIED =
  'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "x": the object has been modified; please apply your changes to the latest version and try again';
const goQuoted = (s: string) => s.replace(/"/g, '\\"');

/** The line each version printed for MODIFIED on default/x, then a successful retry. */
const SPELLINGS: [string, string][] = [
  [
    "v0.31+ (structured)",
    `E1202 11:00:01.210000    7001 controller.go:228] "Error syncing; requeuing for later retry" err="${goQuoted(MODIFIED)}" logger="UnhandledError" objectReference="default/x"`,
  ],
  [
    "v0.27–v0.30 through a structured HandleError",
    `E1202 11:00:01.210000    7001 controller.go:236] "Unhandled Error" err="error syncing 'default/x': ${goQuoted(MODIFIED)}, requeuing" logger="UnhandledError"`,
  ],
  [
    "≤ v0.26 (klog Infof-style HandleError)",
    `E1202 11:00:01.210000    7001 controller.go:233] error syncing 'default/x': ${MODIFIED}, requeuing`,
  ],
];

describe("a 409 named only by the error a pass ended with", () => {
  it.each(SPELLINGS)("%s counts as a conflict", (_what, line) => {
    const { analyzer } = analyze(
      `${line}\nI1202 11:00:01.300000    7001 controller.go:222] "Successfully synced" objectName="default/x"\n`,
    );
    const s = analyzer.summary("default/x")!;
    expect(s.conflicts).toBe(1);
    expect(analyzer.passes("default/x").map((p) => [p.outcome, p.conflicts])).toEqual([
      ["requeued", 1],
      ["synced", 0],
    ]);
    expect(analyzer.findings().map((f) => [f.kind, f.key])).toEqual([
      ["conflict", "default/x"],
      ["retry", "default/x"],
    ]);
    expect(analyzer.findings()[0].detail).toContain("the object has been modified");
  });

  it("is counted once when the write line already said 409", () => {
    const { analyzer } = analyze(
      [
        "I1202 11:00:01.000000    7001 controller.go:207] STAGE/dequeue key=default/x len=0 worker=1",
        "I1202 11:00:01.100000    7001 controller.go:256] STAGE/read key=default/x rv=5",
        "I1202 11:00:01.200000    7001 controller.go:324] STAGE/write verb=updateStatus target=foos/default/x/status code=409 reason=Conflict",
        SPELLINGS[0][1],
        "",
      ].join("\n"),
    );
    expect(analyzer.summary("default/x")!.conflicts).toBe(1);
    expect(analyzer.passes("default/x")[0].conflicts).toBe(1);
  });

  it("an AlreadyExists answer is a 409 too; the controller's own 'not managed by Foo' is not", () => {
    const { analyzer } = analyze(
      [
        `E1202 11:00:02.200000    7001 controller.go:233] error syncing 'default/d': deployments.apps "d" already exists, requeuing`,
        `E1202 11:00:02.300000    7001 controller.go:228] "Error syncing; requeuing for later retry" err="Resource \\"n\\" already exists and is not managed by Foo" logger="UnhandledError" objectReference="default/n"`,
        `E1202 11:00:02.400000    7001 controller.go:228] "Error syncing; requeuing for later retry" err="foos.samplecontroller.k8s.io \\"g\\" not found" logger="UnhandledError" objectReference="default/g"`,
        "",
      ].join("\n"),
    );
    expect(analyzer.summary("default/d")!.conflicts).toBe(1);
    expect(analyzer.summary("default/n")!.conflicts).toBe(0);
    expect(analyzer.summary("default/g")!.conflicts).toBe(0);
  });
});

describe("statusInError", () => {
  it.each([
    [MODIFIED, 409],
    ['Operation cannot be fulfilled on deployments.apps "x": StorageError: invalid object', 409],
    ['failed to create: deployments.apps "x" already exists', 409],
    ['configmaps "x" already exists', 409],
    ['Resource "x" already exists and is not managed by Foo', undefined],
    [
      "the server could not find the requested resource (put foos.samplecontroller.k8s.io x)",
      undefined,
    ],
  ])("%s → %s", (text, status) => {
    expect(statusInError(text)).toBe(status);
  });
});
