/**
 * OpenAPI v3, as much as `kubectl apply` needs: for each group version, a document whose PATCH
 * operations carry x-kubernetes-group-version-kind and a `fieldValidation` parameter, which tells
 * kubectl (1.29+) the server validates fields itself (so it skips client-side validation that
 * would need protobuf OpenAPI v2). Documents are addressed by a content hash because kubectl
 * caches them by URL.
 */
import { createHash } from "node:crypto";
import { FOO_SCHEMA } from "../resources/foo-crd.ts";
import { groupVersions } from "../resources/catalog.ts";
import type { ResourceDef } from "../resources/resource.ts";
import { SERVER_VERSION } from "../server-version.ts";

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

function schemaName(r: ResourceDef): string {
  const g = r.group || "core";
  return `${g}.${r.version}.${r.kind}`;
}

const QUERY = (name: string) => ({
  name,
  in: "query",
  schema: { type: "string", uniqueItems: true },
});

function operations(r: ResourceDef): Record<string, unknown> {
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  // Built-in types get no schema: kubectl then takes strategic-merge metadata from its own
  // compiled-in types instead of from an incomplete document.
  const ref = r.builtIn ? { type: "object" } : { $ref: `#/components/schemas/${schemaName(r)}` };
  const ok = { "200": { description: "OK", content: { "application/json": { schema: ref } } } };
  const params = [QUERY("dryRun"), QUERY("fieldManager"), QUERY("fieldValidation")];
  const base = `/${gvPath(r.group, r.version)}${r.namespaced ? "/namespaces/{namespace}" : ""}/${r.plural}`;
  const patchBody = {
    content: Object.fromEntries(
      [
        "application/json-patch+json",
        "application/merge-patch+json",
        ...(r.builtIn ? ["application/strategic-merge-patch+json"] : []),
      ].map((t) => [t, { schema: { type: "object" } }]),
    ),
  };
  const item = {
    get: {
      operationId: `read${r.kind}`,
      "x-kubernetes-action": "get",
      "x-kubernetes-group-version-kind": gvk,
      responses: ok,
    },
    put: {
      operationId: `replace${r.kind}`,
      "x-kubernetes-action": "put",
      "x-kubernetes-group-version-kind": gvk,
      parameters: params,
      requestBody: { content: { "application/json": { schema: ref } } },
      responses: ok,
    },
    patch: {
      operationId: `patch${r.kind}`,
      "x-kubernetes-action": "patch",
      "x-kubernetes-group-version-kind": gvk,
      parameters: [...params, QUERY("force")],
      requestBody: patchBody,
      responses: ok,
    },
    delete: {
      operationId: `delete${r.kind}`,
      "x-kubernetes-action": "delete",
      "x-kubernetes-group-version-kind": gvk,
      responses: { "200": { description: "OK" } },
    },
  };
  const create = {
    operationId: `create${r.kind}`,
    "x-kubernetes-action": "post",
    "x-kubernetes-group-version-kind": gvk,
    parameters: params,
    requestBody: { content: { "application/json": { schema: ref } } },
    responses: ok,
  };
  // A review is only ever created.
  if (r.review) return { [base]: { post: create } };
  const paths: Record<string, unknown> = {
    [base]: {
      get: {
        operationId: `list${r.kind}`,
        "x-kubernetes-action": "list",
        "x-kubernetes-group-version-kind": gvk,
        responses: { "200": { description: "OK" } },
      },
      post: create,
    },
    [`${base}/{name}`]: item,
  };
  if (r.status !== "none") paths[`${base}/{name}/status`] = item;
  return paths;
}

function schemaFor(r: ResourceDef): Record<string, unknown> {
  const gvk = [{ group: r.group, version: r.version, kind: r.kind }];
  // The descriptions a cluster's apiextensions-apiserver gives every custom resource's common
  // fields (Kubernetes API conventions): `kubectl explain foo` said "<no description>".
  const conventions =
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
  const common = {
    apiVersion: {
      type: "string",
      description: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${conventions}#resources`,
    },
    kind: {
      type: "string",
      description: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${conventions}#types-kinds`,
    },
    metadata: {
      type: "object",
      description: `Standard object's metadata. More info: ${conventions}#metadata`,
    },
  };
  return {
    ...FOO_SCHEMA,
    properties: { ...common, ...FOO_SCHEMA.properties },
    "x-kubernetes-group-version-kind": gvk,
  };
}

interface OpenApiDocs {
  root: unknown;
  /** keyed by "apis/apps/v1" / "api/v1" */
  docs: Map<string, { hash: string; body: string }>;
}

/** By the served types' plurals: a CRD deleted and created again brings back the same docs. */
const cached = new Map<string, OpenApiDocs>();

/** The documents of the types served now (`served`). */
export function openApi(served: readonly ResourceDef[]): OpenApiDocs {
  const key = served.map((r) => `${r.plural}.${r.group}`).join(",");
  const hit = cached.get(key);
  if (hit) return hit;
  const docs = new Map<string, { hash: string; body: string }>();
  const paths: Record<string, unknown> = {};
  for (const gv of groupVersions(served)) {
    const doc = {
      openapi: "3.0.0",
      info: { title: "Kubernetes", version: SERVER_VERSION.gitVersion },
      paths: Object.assign({}, ...gv.resources.map(operations)),
      components: {
        schemas: Object.fromEntries(
          gv.resources.filter((r) => !r.builtIn).map((r) => [schemaName(r), schemaFor(r)]),
        ),
      },
    };
    const body = JSON.stringify(doc);
    const hash = createHash("sha512").update(body).digest("hex").slice(0, 64).toUpperCase();
    const key = gvPath(gv.group, gv.version);
    docs.set(key, { hash, body });
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  const made = { root: { paths }, docs };
  cached.set(key, made);
  return made;
}
