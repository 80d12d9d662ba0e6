/**
 * The real kubectl for tests: where it is, and a runner with its own HOME (kubectl's discovery
 * cache) and a kubeconfig for one embedded server. Test-only; not exported from the package.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { ApiServer } from "../types.ts";

export function findDefaultKubectl(): string | undefined {
  const r = spawnSync("sh", ["-c", "command -v kubectl"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export interface Kubectl {
  run(...args: string[]): Promise<string>;
  /** Writes `obj` as a YAML manifest named `name` in kubectl's HOME; its path. */
  manifest(name: string, obj: unknown): Promise<string>;
  env: NodeJS.ProcessEnv;
  bin: string;
}

export async function kubectlFor(
  bin: string,
  server: ApiServer,
): Promise<{ k: Kubectl; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), "loopscope-kubectl-"));
  const kubeconfig = join(home, "kubeconfig.yaml");
  await server.writeKubeconfig(kubeconfig);
  const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig };
  const run = (...args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(bin, args, { env, timeout: 60_000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`kubectl ${args.join(" ")} failed: ${stderr || err.message}`));
        else resolve(stdout);
      });
    });
  const manifest = async (name: string, obj: unknown) => {
    const path = join(home, name);
    await writeFile(path, stringify(obj));
    return path;
  };
  return {
    k: { run, manifest, env, bin },
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}
