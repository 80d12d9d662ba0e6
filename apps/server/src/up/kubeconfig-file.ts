/**
 * A kubeconfig for the embedded API server, written where only this user can read it (file
 * 0600) so `kubectl` can drive the session; removed at stop.
 *
 * Named by the dashboard's port (`~/.kube/loopscope/kubeconfig-7420`), the path a shell exported
 * stays right across restarts: a fresh folder per run left the other shell's `kubectl` talking
 * to localhost:8080 (kubectl skips a KUBECONFIG file that is gone) after every Ctrl-C and `up`.
 * The folder is in the user's home, never a shared one: a predictable path in /tmp can be
 * planted with a link (docs/security.md). Written whole, by rename, so a reader never sees half
 * a file and a link planted at the name is replaced, not followed. Where that folder cannot be
 * ours (no home, another owner, writable by others) a fresh 0700 temp folder serves the run.
 */
import { lstat, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

export interface KubeconfigFile {
  path: string;
  remove(): Promise<void>;
}

/** `~/.kube/loopscope`, made 0700 if missing; undefined unless it is a folder only we can write. */
async function ownFolder(): Promise<string | undefined> {
  try {
    const dir = join(homedir(), ".kube", "loopscope");
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const st = await lstat(dir);
    const mine = process.getuid === undefined || st.uid === process.getuid();
    return st.isDirectory() && mine && (st.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A fresh folder of its own, removed with the file. */
async function freshFile(yaml: string): Promise<KubeconfigFile> {
  const dir = await mkdtemp(join(tmpdir(), "loopscope-"));
  const path = join(dir, "kubeconfig");
  await writeFile(path, yaml, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The kubeconfig of the run whose dashboard listens on `port`. */
export async function writeKubeconfigFile(yaml: string, port?: number): Promise<KubeconfigFile> {
  const dir = port ? await ownFolder() : undefined;
  if (!dir) return freshFile(yaml);
  const path = join(dir, `kubeconfig-${port}`);
  const part = `${path}.${process.pid}.part`;
  await rm(part, { force: true });
  await writeFile(part, yaml, { mode: 0o600, flag: "wx" });
  await rename(part, path);
  return { path, remove: () => rm(path, { force: true }) };
}
