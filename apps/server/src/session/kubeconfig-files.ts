/**
 * A kubeconfig read as kubectl reads one, with the context to use made current. `path` may be a
 * list of files ($KUBECONFIG's `a:b`), merged so that the first definition of a cluster, user or
 * context wins and the first file that sets a current-context names it; client-node alone reads
 * one file, and would throw on a name that a second file defines again. A file of a list that
 * does not exist is skipped, as kubectl skips it (a $KUBECONFIG set for several clusters often
 * names one not made yet); a file given alone, or a list none of whose files exist, is an error
 * (kubectl would fall back to localhost:8080). A file that exists but cannot be read or parsed
 * is an error, as for kubectl. Plain-http:// clusters are usable, as they are for kubectl (see
 * allowPlainHttp).
 *
 * Every way the file cannot name a cluster is an error here, in one line: client-node would only
 * say "No active cluster!" on the first call.
 */
import { statSync } from "node:fs";
import { delimiter } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { allowPlainHttp } from "./plain-http.ts";

export function loadKubeconfig(path: string, context?: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  try {
    const files = path.split(delimiter).filter((f) => f !== "");
    const found = files.length > 1 ? files.filter((f) => !missing(f)) : files;
    if (found.length === 0) throw new Error("none of these files exists");
    const [first = "", ...more] = found;
    kubeConfig.loadFromFile(first);
    for (const file of more) {
      const next = new KubeConfig();
      next.loadFromFile(file);
      const known = (list: { name: string }[], name: string) => list.some((x) => x.name === name);
      next.clusters = next.clusters.filter((c) => !known(kubeConfig.clusters, c.name));
      next.users = next.users.filter((u) => !known(kubeConfig.users, u.name));
      next.contexts = next.contexts.filter((c) => !known(kubeConfig.contexts, c.name));
      kubeConfig.mergeConfig(next, kubeConfig.getCurrentContext() !== "");
    }
  } catch (err) {
    throw new Error(`cannot read kubeconfig ${path}: ${(err as Error).message.split("\n")[0]}`);
  }
  allowPlainHttp(kubeConfig);
  const names = kubeConfig.getContexts().map((c) => c.name);
  if (context) {
    if (!names.includes(context)) {
      throw new Error(
        `context "${context}" not found in ${path} (contexts: ${names.join(", ") || "none"})`,
      );
    }
    kubeConfig.setCurrentContext(context);
  }
  const current = kubeConfig.getCurrentContext();
  if (!current) {
    throw new Error(
      names.length > 0
        ? `the kubeconfig ${path} sets no current-context; pass --context NAME (its contexts: ${names.join(", ")})`
        : `the kubeconfig ${path} sets no current-context and has no contexts`,
    );
  }
  if (!kubeConfig.getContextObject(current)) {
    throw new Error(
      `current-context "${current}" of ${path} is not one of its contexts (${names.join(", ") || "none"}): pass --context NAME`,
    );
  }
  if (!kubeConfig.getCurrentCluster()) {
    throw new Error(`context "${current}" of ${path} names no cluster it defines`);
  }
  return kubeConfig;
}

/** Whether nothing is at `file` (kubectl's os.IsNotExist: not a directory, nor a file it cannot read). */
function missing(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}
