/**
 * A kubeconfig for the embedded API server, written where only this user can read it
 * (a fresh 0700 temp folder, file 0600) so `kubectl` can drive the session; removed at stop.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface KubeconfigFile {
  path: string;
  remove(): Promise<void>;
}

export async function writeKubeconfigFile(yaml: string): Promise<KubeconfigFile> {
  const dir = await mkdtemp(join(tmpdir(), "loopscope-"));
  const path = join(dir, "kubeconfig");
  await writeFile(path, yaml, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
