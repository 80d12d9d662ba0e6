/**
 * A kubeconfig for the embedded server. `insecure-skip-tls-verify: true` is required for an
 * http:// server by @kubernetes/client-node 1.x, and a user entry (even empty) must exist.
 */
import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";

export const KUBECONFIG_CONTEXT = "loopscope-embedded";

export function kubeconfigYaml(url: string, namespace = "default"): string {
  const name = KUBECONFIG_CONTEXT;
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${name}`,
    "  cluster:",
    `    server: ${JSON.stringify(url)}`,
    "    insecure-skip-tls-verify: true",
    "users:",
    `- name: ${name}`,
    "  user: {}",
    "contexts:",
    `- name: ${name}`,
    "  context:",
    `    cluster: ${name}`,
    `    user: ${name}`,
    `    namespace: ${namespace}`,
    `current-context: ${name}`,
    "preferences: {}",
    "",
  ].join("\n");
}

/** `path` names a symbolic link: writing would change whatever file it points at. */
export class KubeconfigSymlinkError extends Error {
  constructor(readonly path: string) {
    super(`${path} is a symbolic link: not written through it; name the file itself`);
  }
}

/**
 * Writes `yaml` to `path` (0600), never through a symbolic link: someone who can plant a link
 * where the file will go (a shared temp folder) must not get another file overwritten, or
 * truncated. Only the last component is checked; folders on the way are the caller's choice.
 */
export async function writeKubeconfigFile(path: string, yaml: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW } = constants;
  let fh;
  try {
    fh = await open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw new KubeconfigSymlinkError(path);
    throw e;
  }
  try {
    await fh.chmod(0o600);
    await fh.writeFile(yaml);
  } finally {
    await fh.close();
  }
}
