/**
 * Maps a URL path to a resource request:
 *   /api/v1/{plural}[/{name}[/{sub}]]                         cluster-scoped, or all namespaces
 *   /api/v1/namespaces/{ns}/{plural}[/{name}[/{sub}]]         namespaced
 *   /apis/{group}/{version}/… the same two shapes
 * `/api/v1/namespaces/{name}[/status]` addresses the Namespace itself.
 */
import { findResource } from "../resources/catalog.ts";
import type { ResourceDef } from "../resources/resource.ts";

export interface ResourceRequest {
  def: ResourceDef;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** undefined: not a resource path at all; null: a resource path naming nothing we serve. */
export function parseResourcePath(pathname: string): ResourceRequest | null | undefined {
  const parts = pathname
    .split("/")
    .filter((p) => p !== "")
    .map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  if (
    rest[0] === "namespaces" &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === "status" || rest[2] === "finalize"))
  ) {
    const def = findResource(group, version, rest[2]);
    if (!def || !def.namespaced || rest.length > 5) return null;
    return { def, namespace: rest[1], name: rest[3], subresource: rest[4] };
  }
  const def = findResource(group, version, rest[0]);
  if (!def || rest.length > 3) return null;
  if (def.namespaced && rest.length > 1) return null;
  return { def, name: rest[1], subresource: rest[2] };
}
