/**
 * What the row reader keeps for good — the store's strings, a detail's values — must be copies:
 * a string cut from a log is a slice that keeps its whole decoded chunk alive, and a page that
 * read a 60k-Foo log held 75 MB of text that way where 11 MB was its own (see detach.ts). Only
 * visible through the heap after GC, so the reading runs in a child under `node --expose-gc`.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

it("keeps no slice of a chunk it has read", { timeout: 60_000 }, () => {
  const fixture = fileURLToPath(new URL("../testing/window-retention.fixture.ts", import.meta.url));
  const child = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", fixture], {
    encoding: "utf8",
  });
  expect(child.stderr).toBe("");
  const { before, after, rows } = JSON.parse(child.stdout) as Record<string, number>;
  expect(rows).toBe(24008);
  // The 3000 Foos' ids, details and tables: ~3 MB. The first chunk's text, kept by slices: 13 MB.
  expect((after - before) / 2 ** 20).toBeLessThan(8);
});
