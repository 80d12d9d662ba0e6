/**
 * `--for Kind` without a group names the core group's kind. A user who types `--for Foo` means
 * samplecontroller.k8s.io's, and got a trace with nothing in it, unexplained: asked once at start,
 * the cluster's discovery says which group has a kind of that name.
 */
import { ApisApi, CoreV1Api, CustomObjectsApi, type KubeConfig } from "@kubernetes/client-node";

/**
 * What to tell a user of `--for KIND` (no group) when the core group has no kind KIND: which
 * groups do; undefined when the core group has it, or discovery cannot be read (the cluster
 * does not answer yet: nothing is known to be wrong).
 */
export async function corePrimaryHint(kc: KubeConfig, kind: string): Promise<string | undefined> {
  try {
    const core = await kc.makeApiClient(CoreV1Api).getAPIResources();
    if (core.resources.some((r) => r.kind === kind)) return undefined;
    const groups = (await kc.makeApiClient(ApisApi).getAPIVersions()).groups;
    const custom = kc.makeApiClient(CustomObjectsApi);
    const found: string[] = [];
    for (const g of groups) {
      const version = g.preferredVersion?.version ?? g.versions[0]?.version;
      if (version === undefined) continue;
      const list = await custom.getAPIResources({ group: g.name, version }).catch(() => undefined);
      if (list?.resources.some((r) => r.kind === kind)) found.push(`${g.name}/${kind}`);
    }
    return (
      `--for ${kind}: the core group has no kind ${kind}, so no ${kind} is traced as primary` +
      (found.length > 0 ? `; did you mean --for ${found.join(" or --for ")}?` : "")
    );
  } catch {
    return undefined;
  }
}
