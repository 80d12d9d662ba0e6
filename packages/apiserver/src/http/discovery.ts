/**
 * API discovery, both forms kubectl understands:
 * - aggregated (apidiscovery.k8s.io v2 / v2beta1) when the Accept header asks for it, with the
 *   exact Content-Type kubectl checks;
 * - legacy APIVersions / APIGroupList / APIResourceList otherwise (kubectl ≤ 1.29 fallback,
 *   client-node's KubernetesObjectApi). Main resources are listed before their subresources.
 */
import { groupVersions } from "../resources/catalog.ts";
import type { ResourceDef } from "../resources/resource.ts";
import { aggregatedContentType, type DiscoveryVersion } from "./negotiation.ts";

const VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const READ_VERBS = ["get", "list", "watch"];
const SUB_VERBS = ["get", "patch", "update"];

/** What a resource's discovery entry says clients may do with it. */
function verbsOf(r: ResourceDef): string[] {
  return r.review ? ["create"] : r.readOnly ? READ_VERBS : VERBS;
}

interface Discovery {
  contentType: string;
  body: unknown;
}

function aggregatedResource(r: ResourceDef): Record<string, unknown> {
  const subresources: Record<string, unknown>[] = [];
  if (r.scale) {
    subresources.push({
      subresource: "scale",
      responseKind: { group: "autoscaling", version: "v1", kind: "Scale" },
      verbs: SUB_VERBS,
    });
  }
  if (r.status !== "none") {
    subresources.push({
      subresource: "status",
      responseKind: { group: r.group, version: r.version, kind: r.kind },
      verbs: SUB_VERBS,
    });
  }
  return {
    resource: r.plural,
    responseKind: { group: "", version: "", kind: r.kind },
    scope: r.namespaced ? "Namespaced" : "Cluster",
    singularResource: r.singular,
    verbs: verbsOf(r),
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

function aggregated(core: boolean, v: DiscoveryVersion, served: readonly ResourceDef[]): Discovery {
  const items = groupVersions(served)
    .filter((gv) => (gv.group === "") === core)
    .map((gv) => ({
      metadata: core ? { creationTimestamp: null } : { name: gv.group, creationTimestamp: null },
      versions: [
        {
          version: gv.version,
          freshness: "Current",
          resources: gv.resources.map(aggregatedResource),
        },
      ],
    }));
  return {
    contentType: aggregatedContentType(v),
    body: {
      kind: "APIGroupDiscoveryList",
      apiVersion: `apidiscovery.k8s.io/${v}`,
      metadata: {},
      items,
    },
  };
}

export function discoverCore(
  v: DiscoveryVersion | undefined,
  serverAddress: string,
  served: readonly ResourceDef[],
): Discovery {
  if (v) return aggregated(true, v, served);
  return {
    contentType: "application/json",
    body: {
      kind: "APIVersions",
      versions: ["v1"],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
    },
  };
}

function groupEntry(group: string, version: string): Record<string, unknown> {
  const gv = { groupVersion: `${group}/${version}`, version };
  return { name: group, versions: [gv], preferredVersion: gv };
}

export function discoverGroups(
  v: DiscoveryVersion | undefined,
  served: readonly ResourceDef[],
): Discovery {
  if (v) return aggregated(false, v, served);
  const groups = groupVersions(served)
    .filter((gv) => gv.group !== "")
    .map((gv) => groupEntry(gv.group, gv.version));
  return {
    contentType: "application/json",
    body: { kind: "APIGroupList", apiVersion: "v1", groups },
  };
}

/** GET /apis/{group}: the legacy APIGroup, or undefined if we do not serve the group. */
export function discoverGroup(group: string, served: readonly ResourceDef[]): unknown {
  const gv = groupVersions(served).find((g) => g.group === group && group !== "");
  return gv
    ? { kind: "APIGroup", apiVersion: "v1", ...groupEntry(gv.group, gv.version) }
    : undefined;
}

/** GET /api/v1 or /apis/{group}/{version}: APIResourceList, or undefined. */
export function discoverResources(
  group: string,
  version: string,
  served: readonly ResourceDef[],
): unknown {
  const gv = groupVersions(served).find((g) => g.group === group && g.version === version);
  if (!gv) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const r of gv.resources) {
    resources.push({
      name: r.plural,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: verbsOf(r),
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
    });
    if (r.scale) {
      resources.push({
        name: `${r.plural}/scale`,
        singularName: "",
        namespaced: r.namespaced,
        group: "autoscaling",
        version: "v1",
        kind: "Scale",
        verbs: SUB_VERBS,
      });
    }
    if (r.status !== "none") {
      resources.push({
        name: `${r.plural}/status`,
        singularName: "",
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: SUB_VERBS,
      });
    }
  }
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
