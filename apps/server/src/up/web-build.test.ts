import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { webBuildIsStale } from "./web-build.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "loopscope-webbuild-"));
  for (const d of ["apps/web/src", "apps/web/dist", "packages/trace/src"]) {
    await mkdir(join(root, d), { recursive: true });
  }
});
afterEach(() => rm(root, { recursive: true, force: true }));

const at = async (path: string, seconds: number) => {
  await writeFile(join(root, path), "x");
  await utimes(join(root, path), seconds, seconds);
};

it("is stale without a build, fresh after one, stale again when any source is newer", async () => {
  await at("apps/web/src/main.tsx", 1000);
  await at("packages/trace/src/event.ts", 1000);
  expect(await webBuildIsStale(root)).toBe(true);
  // Folders count too (a deleted file changes its folder's mtime): make them old.
  for (const d of ["apps/web/src", "packages/trace/src"]) await utimes(join(root, d), 900, 900);
  await at("apps/web/dist/index.html", 2000);
  expect(await webBuildIsStale(root)).toBe(false);
  await at("packages/trace/src/event.ts", 3000);
  expect(await webBuildIsStale(root)).toBe(true);
  await at("apps/web/dist/index.html", 4000);
  await at("apps/web/src/main.tsx", 5000);
  expect(await webBuildIsStale(root)).toBe(true);
});
