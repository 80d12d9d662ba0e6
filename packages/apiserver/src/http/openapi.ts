/**
 * OpenAPI v3, as much as `kubectl apply` needs: for each group version, a document whose PATCH
 * operations carry x-kubernetes-group-version-kind and a `fieldValidation` parameter, which tells
 * kubectl (1.29+) the server validates fields itself (so it skips client-side validation that
 * would need protobuf OpenAPI v2). Documents are addressed by a content hash because kubectl
 * caches them by URL.
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "../object.ts";
import { groupVersions } from "../resources/catalog.ts";
import type { ResourceDef } from "../resources/resource.ts";
import type { JsonSchema } from "../resources/schema.ts";
import { SERVER_VERSION } from "../server-version.ts";

/** A CRD version without a schema (one a cluster would have refused): its objects keep any field. */
const PRESERVE_UNKNOWN: JsonSchema = {
  type: "object",
  "x-kubernetes-preserve-unknown-fields": true,
};

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

/** A custom resource's schema: its CRD's openAPIV3Schema (`schema`), with the common fields. */
function schemaFor(r: ResourceDef, schema: JsonSchema): Record<string, unknown> {
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
    ...schema,
    properties: { ...common, ...(isPlainObject(schema.properties) ? schema.properties : {}) },
    "x-kubernetes-group-version-kind": gvk,
  };
}

interface OpenApiDocs {
  root: unknown;
  /** keyed by "apis/apps/v1" / "api/v1" */
  docs: Map<string, { hash: string; body: string }>;
}

/** The documents last made, and what they were made of (the served types and their schemas). */
let cached: { key: string; docs: OpenApiDocs } | undefined;

/**
 * The documents of the types served now (`served`), a custom resource's schema its CRD's as it
 * is now (`schemaOf`): `kubectl explain` shows the fields of a CRD applied again with another.
 */
export function openApi(
  served: readonly ResourceDef[],
  schemaOf: (r: ResourceDef) => JsonSchema | undefined,
): OpenApiDocs {
  const custom = served.filter((r) => !r.builtIn);
  const schemas = new Map(custom.map((r) => [r, schemaOf(r) ?? PRESERVE_UNKNOWN]));
  const key = JSON.stringify([served.map((r) => `${r.plural}.${r.group}`), [...schemas.values()]]);
  if (cached?.key === key) return cached.docs;
  const docs = new Map<string, { hash: string; body: string }>();
  const paths: Record<string, unknown> = {};
  for (const gv of groupVersions(served)) {
    const doc = {
      openapi: "3.0.0",
      info: { title: "Kubernetes", version: SERVER_VERSION.gitVersion },
      paths: Object.assign({}, ...gv.resources.map(operations)),
      components: {
        schemas: Object.fromEntries(
          gv.resources
            .filter((r) => !r.builtIn)
            .map((r) => [schemaName(r), schemaFor(r, schemas.get(r) as JsonSchema)]),
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
  cached = { key, docs: made };
  return made;
}
