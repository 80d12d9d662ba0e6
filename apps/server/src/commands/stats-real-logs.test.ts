/**
 * `loopscope stats` on the shapes real logs take, as a user runs it (`tsx apps/server/src/main.ts`
 * in a child process): an unpatched controller's log, whose conflicts show only in its "Error
 * syncing" lines.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const TSX = join(ROOT, "node_modules/.bin/tsx");

function loopscope(args: string[], input?: Buffer | string) {
  const r = spawnSync(TSX, ["apps/server/src/main.ts", ...args], {
    cwd: ROOT,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("loopscope stats on real log shapes", { timeout: 90_000 }, () => {
  it("counts an unpatched controller's 'Error syncing … the object has been modified' as a conflict", () => {
    const r = loopscope(["stats", "e2e/fixtures/unpatched-exercise.log", "--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.keys["default/example-foo"]).toMatchObject({ passes: 6, conflicts: 1 });
    expect(j.findings.map((f: { kind: string }) => f.kind)).toEqual(["conflict", "retry"]);
  });
});
