import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { typedInDirectory } from "./typed-in.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

describe("paths on the command line are relative to where the user typed it", () => {
  it("is INIT_CWD for the loopscope script, nothing otherwise", () => {
    const env = { npm_lifecycle_event: "loopscope", INIT_CWD: "/home/u/traces" };
    expect(typedInDirectory(env, "/repo")).toBe("/home/u/traces");
    expect(typedInDirectory(env, "/home/u/traces")).toBeUndefined();
    // Inherited from `pnpm test` or `pnpm up` by a process nobody typed.
    expect(typedInDirectory({ ...env, npm_lifecycle_event: "unit" }, "/repo")).toBeUndefined();
    expect(typedInDirectory({ npm_lifecycle_event: "loopscope" }, "/repo")).toBeUndefined();
  });

  it("`pnpm loopscope stats traces/…` from public/ reads public/traces/…", () => {
    const r = spawnSync(
      "pnpm",
      ["--silent", "loopscope", "stats", "traces/create-foo.jsonl", "--json"],
      { cwd: join(ROOT, "public"), encoding: "utf8", timeout: 60_000 },
    );
    expect(r.stderr).not.toContain("no such file");
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { events: number }).events).toBeGreaterThan(0);
  }, 70_000);
});
