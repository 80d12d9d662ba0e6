import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellWord } from "./shell-word.ts";

describe("shellWord", () => {
  it("leaves a plain path as it is and quotes any other so that a shell reads it back whole", () => {
    expect(shellWord("/tmp/loopscope-x/kubeconfig")).toBe("/tmp/loopscope-x/kubeconfig");
    for (const value of ["/home/a b/My Configs/kube config", "it's", "a:b;rm -rf x", "$HOME`x`"]) {
      const echoed = execFileSync(
        "sh",
        ["-c", `export KUBECONFIG=${shellWord(value)}; printf %s "$KUBECONFIG"`],
        {
          encoding: "utf8",
        },
      );
      expect(echoed).toBe(value);
    }
  });
});
