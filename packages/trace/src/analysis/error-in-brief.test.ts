import { describe, expect, it } from "vitest";
import { analyze } from "../testing/fixtures.ts";
import { ERROR_IN_BRIEF_MAX, errorInBrief } from "./error-in-brief.ts";

describe("a finding quotes a long error in brief", () => {
  it("keeps a short error whole, and a long one's start and end", () => {
    const short = 'Operation cannot be fulfilled on foos.samplecontroller.k8s.io "x": modified';
    expect(errorInBrief(short)).toBe(short);
    const long = "admission webhook denied: " + "x".repeat(40_000) + " (final cause: quota)";
    const brief = errorInBrief(long);
    expect(brief.length).toBeLessThanOrEqual(ERROR_IN_BRIEF_MAX);
    expect(brief.startsWith("admission webhook denied: xxx")).toBe(true);
    expect(brief.endsWith("xxx (final cause: quota)")).toBe(true);
    expect(brief).toContain(" … ");
  });

  it("puts an error of several lines on one line", () => {
    const multi = "Operation cannot be fulfilled:\n\tthe object has been modified\r\n\tretry";
    expect(errorInBrief(multi)).toBe(
      "Operation cannot be fulfilled: ⏎ the object has been modified ⏎ retry",
    );
  });

  it("never splits a character made of two UTF-16 units", () => {
    for (let pad = 0; pad < 4; pad++) {
      const brief = errorInBrief("a".repeat(pad) + "🦀".repeat(400));
      expect(brief).not.toMatch(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
      );
    }
  });

  it("in stats' retry finding of an Error syncing line with a 40 KB error", () => {
    const err = "update failed: " + "y".repeat(40_000) + " the end";
    const log = [
      "I0501 09:46:50.100000       1 controller.go:131] STAGE/watch kind=Foo event=add key=default/a rv=1",
      "I0501 09:46:50.100100       1 controller.go:338] STAGE/enqueue key=default/a len=1",
      "I0501 09:46:50.100200       1 controller.go:207] STAGE/dequeue key=default/a len=0 worker=1",
      `E0501 09:46:50.100300       1 controller.go:233] "Error syncing; requeuing for later retry" err=${JSON.stringify(err)} objectReference="default/a"`,
    ].join("\n");
    const { analyzer } = analyze(log + "\n");
    const retry = analyzer.snapshot().findings.find((f) => f.kind === "retry")!;
    expect(retry.detail.length).toBeLessThan(ERROR_IN_BRIEF_MAX + 80);
    expect(retry.detail).toMatch(
      /^passes ended in error and were requeued \(last: update failed: y+ … y+ the end\)/,
    );
  });
});
