/**
 * What a Kubernetes API request is about, read off its method and URL alone (never its body):
 * the resource, the object, the verb. The proxy decides from this what to record and forwards
 * the request untouched whatever it says.
 *
 * Invariants: `undefined` for anything that is not a resource request (discovery, /version,
 * /openapi, /healthz); names are percent-decoded; the legacy `/watch/` prefix and `?watch=1`
 * both make a watch.
 */

export type ApiVerb =
  "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

export interface ApiRequest {
  /** "" for the core group (/api/v1). */
  group: string;
  version: string;
  /** Plural resource name: "foos", "deployments". */
  resource: string;
  namespace?: string;
  /** The object's name; absent for collections (list, watch, create). */
  name?: string;
  /** "status", "scale", … */
  subresource?: string;
  verb: ApiVerb;
}

const WRITES = new Set<ApiVerb>(["create", "update", "patch", "delete", "deletecollection"]);

export function isWrite(verb: ApiVerb): boolean {
  return WRITES.has(verb);
}

export function parseApiRequest(method: string, url: string): ApiRequest | undefined {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? "" : url.slice(q + 1);
  let segs: string[];
  try {
    segs = path
      .split("/")
      .filter((s) => s !== "")
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
  let group: string;
  let version: string;
  if (segs[0] === "api" && segs.length >= 3) {
    group = "";
    version = segs[1];
    segs = segs.slice(2);
  } else if (segs[0] === "apis" && segs.length >= 4) {
    group = segs[1];
    version = segs[2];
    segs = segs.slice(3);
  } else {
    return undefined;
  }
  let watch = false;
  if (segs[0] === "watch") {
    watch = true;
    segs = segs.slice(1);
  }
  let namespace: string | undefined;
  if (segs[0] === "namespaces" && segs.length >= 3) {
    namespace = segs[1];
    segs = segs.slice(2);
  }
  const [resource, name, ...sub] = segs;
  if (!resource) return undefined;
  if (!watch && /(^|&)watch=(true|1)(&|$)/.test(query)) watch = true;
  const verb = verbOf(method.toUpperCase(), name !== undefined, watch);
  if (verb === undefined) return undefined;
  const r: ApiRequest = { group, version, resource, verb };
  if (namespace !== undefined) r.namespace = namespace;
  if (name !== undefined) r.name = name;
  if (sub.length > 0) r.subresource = sub.join("/");
  return r;
}

function verbOf(method: string, named: boolean, watch: boolean): ApiVerb | undefined {
  switch (method) {
    case "GET":
      return watch ? "watch" : named ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return named ? "delete" : "deletecollection";
    default:
      return undefined;
  }
}

/** The trace's write target: "deployments/ns/name", "foos/ns/name/status", "namespaces/name". */
export function targetOf(r: ApiRequest, name: string | undefined): string {
  const parts = [r.resource];
  if (r.namespace !== undefined) parts.push(r.namespace);
  parts.push(name ?? r.name ?? "");
  if (r.subresource) parts.push(r.subresource);
  return parts.join("/");
}
