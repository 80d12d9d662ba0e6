/**
 * Makes sure the dashboard's static build exists and is newer than its sources (apps/web/src,
 * apps/web/index.html, packages/<pkg>/src); rebuilds with `pnpm --filter @loopscope/web build`
 * otherwise, its progress shown on stderr (stdout stays for the URLs).
 */
import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const WEB_DIST = join(REPO_ROOT, "apps", "web", "dist");

/** Newest mtime (ms) of any file under `path` (0 when absent). node_modules is skipped. */
export async function newestMtime(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    newest = Math.max(newest, await newestMtime(join(path, entry.name)));
  }
  return newest;
}

export async function webBuildIsStale(root = REPO_ROOT): Promise<boolean> {
  const built = await newestMtime(join(root, "apps", "web", "dist", "index.html"));
  if (built === 0) return true;
  const sources = [join(root, "apps", "web", "src"), join(root, "apps", "web", "index.html")];
  const packages = await readdir(join(root, "packages")).catch(() => [] as string[]);
  for (const p of packages) sources.push(join(root, "packages", p, "src"));
  for (const s of sources) if ((await newestMtime(s)) > built) return true;
  return false;
}

/** Builds when stale; rejects with a one-line reason if the build fails. */
export async function ensureWebBuild(log: (line: string) => void): Promise<void> {
  if (!(await webBuildIsStale())) return;
  log("building the dashboard (apps/web) …");
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn("pnpm", ["--filter", "@loopscope/web", "build"], {
      cwd: REPO_ROOT,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    child.once("error", reject);
    child.once("exit", (c) => resolve(c ?? 1));
  });
  if (code !== 0)
    throw new Error(`dashboard build failed (pnpm --filter @loopscope/web build exited ${code})`);
}
