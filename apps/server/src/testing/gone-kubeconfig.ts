/**
 * A kubeconfig file whose current context names a cluster nobody serves (port 9, "discard"):
 * put first in a list ($KUBECONFIG=gone:real), it checks that a command takes the context it is
 * given from a later file, as kubectl merges them, and never the first file's current one.
 */
import { writeFile } from "node:fs/promises";

export const GONE_CONTEXT = "gone";

export async function writeGoneKubeconfig(path: string): Promise<string> {
  await writeFile(
    path,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters: [{ name: gone, cluster: { server: 'http://127.0.0.1:9' } }]",
      "users: [{ name: gone, user: {} }]",
      "contexts: [{ name: gone, context: { cluster: gone, user: gone } }]",
      "current-context: gone",
    ].join("\n"),
  );
  return path;
}
