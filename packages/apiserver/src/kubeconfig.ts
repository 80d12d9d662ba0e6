/**
 * A kubeconfig for the embedded server. `insecure-skip-tls-verify: true` is required for an
 * http:// server by @kubernetes/client-node 1.x, and a user entry (even empty) must exist.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
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

export async function writeKubeconfigFile(path: string, yaml: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, yaml, { mode: 0o600 });
  await chmod(path, 0o600);
}
