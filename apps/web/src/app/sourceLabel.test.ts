import { describe, expect, it } from "vitest";
import type { ServerInfo } from "@loopscope/protocol";
import { sourceLabel } from "./sourceLabel.ts";

const info = (cluster: ServerInfo["cluster"], more: Partial<ServerInfo> = {}): ServerInfo =>
  ({ mode: "live", version: "0", cluster, ...more }) as ServerInfo;

describe("the top bar's source label", () => {
  it("names a real cluster by its kubeconfig context, the embedded one as such", () => {
    const live = { kind: "live" } as const;
    expect(sourceLabel(live, info({ kind: "kubeconfig", context: "kind-prod" }))).toBe(
      "live · kind-prod",
    );
    expect(sourceLabel(live, info({ kind: "embedded" }))).toBe("live · embedded");
    expect(sourceLabel(live, undefined)).toBe("live · …");
  });

  it("says what is replayed, and when nothing is open", () => {
    expect(
      sourceLabel({ kind: "live" }, info({ kind: "none" }, { mode: "replay", trace: "t.jsonl" })),
    ).toBe("replaying t.jsonl");
    expect(sourceLabel({ kind: "replay", name: "x.log" }, undefined)).toBe("replay · x.log");
    expect(sourceLabel({ kind: "none" }, undefined)).toBe("no trace open");
  });
});
