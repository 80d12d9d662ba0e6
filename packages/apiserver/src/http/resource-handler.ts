/**
 * Serves one resource request: chooses the verb from method + path + `watch`, applies faults,
 * calls the registry and encodes the answer (object, list, Table, Scale or Status).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ApiError,
  badRequest,
  invalid,
  methodNotAllowed,
  notFound,
  pathNotFound,
  unsupportedMediaType,
} from "../errors.ts";
import type { KObject } from "../object.ts";
import { isPlainObject } from "../object.ts";
import { patchTypeOf } from "../patch/apply-patch.ts";
import { decodePatchBody } from "../patch/patch-body.ts";
import { checkResourceVersion } from "../store/resource-version.ts";
import type { DeleteOptions, FieldValidation } from "../registry.ts";
import { servingOf } from "../resources/crd-serving.ts";
import { cannotHandle } from "../resources/decode.ts";
import { podResource } from "../resources/pod.ts";
import { apiVersionOf } from "../resources/resource.ts";
import { getScale, patchScale, updateScale } from "../scale-subresource.ts";
import { minimumRv, waitUntilFresh } from "../store/fresh-enough.ts";
import { toTable, type IncludeObject } from "../table/table.ts";
import type { Verb } from "../types.ts";
import type { ServerContext } from "./context.ts";
import { wantsTable } from "./negotiation.ts";
import { decodeProtobufObject } from "./protobuf.ts";
import { parseJson, parseYaml, readBody, sendJson } from "./respond.ts";
import type { ResourceRequest } from "./route.ts";
import { serveWatch } from "./watch-handler.ts";

/** A pod's subresources that reach its running containers. */
const CONTAINER_SUBRESOURCES = new Set(["log", "exec", "attach", "portforward"]);

function verbOf(method: string, rr: ResourceRequest, watch: boolean): Verb | "deletecollection" {
  switch (method) {
    case "GET":
      return rr.name ? (watch ? "watch" : "get") : watch ? "watch" : "list";
    case "POST":
      if (rr.name) throw methodNotAllowed();
      return "create";
    case "PUT":
      if (!rr.name) throw methodNotAllowed();
      return "update";
    case "PATCH":
      if (!rr.name) throw methodNotAllowed();
      return "patch";
    case "DELETE":
      return rr.name ? "delete" : "deletecollection";
    default:
      throw methodNotAllowed();
  }
}

/** A create/update body: JSON, or (for the Namespace kubectl sends that way) protobuf. */
async function readObjectBody(req: IncomingMessage): Promise<unknown> {
  const media = (req.headers["content-type"] ?? "application/json")
    .split(";")[0]
    .trim()
    .toLowerCase();
  if (media === "application/vnd.kubernetes.protobuf")
    return decodeProtobufObject(await readBody(req));
  if (media === "application/yaml") return parseYaml(await readBody(req));
  if (media !== "application/json" && media !== "" && media !== "*/*") {
    throw unsupportedMediaType([
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
    ]);
  }
  return parseJson(await readBody(req));
}

/** The `fieldValidation` parameter; absent or unrecognized: Warn, the server's default. */
function fieldValidation(q: URLSearchParams): FieldValidation {
  const v = q.get("fieldValidation");
  return v === "Strict" || v === "Ignore" ? v : "Warn";
}

/**
 * A `Warning` header value as apiserver writes it (`299 - "<text>"`, the text quoted as Go's
 * strconv.Quote does); non-ASCII is escaped, which a header value cannot carry raw here.
 */
function warningHeader(text: string): string {
  const quoted = JSON.stringify(text).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `299 - ${quoted}`;
}

function includeObject(q: URLSearchParams): IncludeObject {
  const v = q.get("includeObject");
  return v === "None" || v === "Object" ? v : "Metadata";
}

function listBody(rr: ResourceRequest, items: KObject[], resourceVersion: string): unknown {
  const { def } = rr;
  return {
    kind: def.listKind,
    apiVersion: apiVersionOf(def),
    metadata: { resourceVersion },
    // Built-in types omit apiVersion/kind on list items, custom resources keep them.
    items: def.builtIn ? items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest) : items,
  };
}

const POLICIES = ["Foreground", "Background", "Orphan"] as const;

function deleteOptions(q: URLSearchParams, body: unknown): DeleteOptions {
  const b = isPlainObject(body) ? body : {};
  const given: unknown = q.get("propagationPolicy") ?? b.propagationPolicy;
  const orphanGiven = q.has("orphanDependents") || b.orphanDependents !== undefined;
  const orphan = q.get("orphanDependents") === "true" || b.orphanDependents === true;
  // A policy misspelt ("orphan") is refused, as a real server does: taken for Background, it
  // deleted the dependents its caller meant to keep.
  const refuse = (reason: string, detail: string) =>
    invalid("DeleteOptions.meta.k8s.io", "", "meta.k8s.io", "DeleteOptions", [
      { reason, field: "propagationPolicy", detail },
    ]);
  if (given !== undefined && given !== null && !POLICIES.includes(given as never))
    throw refuse(
      "FieldValueNotSupported",
      `Unsupported value: ${JSON.stringify(given)}: supported values: ${POLICIES.map((p) => `"${p}"`).join(", ")}`,
    );
  if (given != null && orphanGiven)
    throw refuse(
      "FieldValueInvalid",
      `Invalid value: ${JSON.stringify(given)}: orphanDependents and deletionPropagation cannot be both set`,
    );
  const policy = (given ?? undefined) as DeleteOptions["propagationPolicy"] | undefined;
  return {
    dryRun: q.has("dryRun") || (Array.isArray(b.dryRun) && b.dryRun.length > 0),
    propagationPolicy: policy ?? (orphan ? "Orphan" : undefined),
    preconditions: isPlainObject(b.preconditions)
      ? (b.preconditions as DeleteOptions["preconditions"])
      : undefined,
  };
}

function deletedStatus(rr: ResourceRequest, obj: KObject): unknown {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: {
      name: obj.metadata.name,
      group: rr.def.group,
      kind: rr.def.plural,
      uid: obj.metadata.uid,
    },
  };
}

/** A review (resources/access-review.ts): created and answered at once, never stored. */
async function serveReview(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  rr: ResourceRequest,
  verb: Verb | "deletecollection",
): Promise<void> {
  const { def } = rr;
  if (rr.subresource) throw pathNotFound();
  if (verb !== "create") throw methodNotAllowed();
  await ctx.faults.before("create");
  const body = await readObjectBody(req);
  if (!isPlainObject(body)) throw cannotHandle(def, "expected a JSON object");
  if (body.kind !== undefined && body.kind !== def.kind)
    throw cannotHandle(def, `the kind "${String(body.kind)}" does not match`);
  const review = def.review as (obj: KObject) => KObject;
  sendJson(res, 201, review({ ...body, apiVersion: apiVersionOf(def), kind: def.kind } as KObject));
}

export async function serveResource(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  rr: ResourceRequest,
  query: URLSearchParams,
): Promise<void> {
  const { def, namespace, name, subresource } = rr;
  // `kubectl logs|exec|attach|port-forward` on a simulated pod: say why there is nothing, rather
  // than a bare 404 ("the server could not find the requested resource") or 405.
  if (def === podResource && subresource && CONTAINER_SUBRESOURCES.has(subresource))
    throw badRequest(
      `pod "${name}" stands for a replica in loopscope's simulated cluster: no container runs in it, so it has no log and nothing to exec into, attach to or forward to`,
    );
  const method = req.method ?? "GET";
  const watch = query.get("watch") === "true" || query.get("watch") === "1";
  const verb = verbOf(method, rr, watch);
  if (def.readOnly && verb !== "get" && verb !== "list" && verb !== "watch") {
    throw new ApiError(
      405,
      "MethodNotAllowed",
      `the server does not allow this method on the requested resource: ${def.plural} here are the simulated cluster's own, read-only`,
    );
  }
  if (def.review) return serveReview(ctx, req, res, rr, verb);
  if (subresource && subresource !== "status" && !(subresource === "scale" && def.scale))
    // apiextensions' handler answers a subresource its CRD does not serve (a Foo's scale) with
    // the object's NotFound, which kubectl prints as `foos.… "x" not found`.
    throw def.builtIn ? pathNotFound() : notFound(def, name ?? "");
  if (subresource === "status" && def.status === "none") throw pathNotFound();
  if (subresource && (verb === "watch" || verb === "delete")) throw methodNotAllowed();
  await ctx.faults.before(verb === "deletecollection" ? "delete" : verb);

  const { registry } = ctx;
  const table = wantsTable(req.headers.accept) ? includeObject(query) : undefined;
  const warnings: string[] = [];
  const write = { dryRun: query.has("dryRun"), fieldValidation: fieldValidation(query), warnings };
  // Written with the response (the registry has run by then).
  const sendWithWarnings = (code: number, body: unknown) => {
    if (warnings.length > 0) res.setHeader("Warning", warnings.map(warningHeader));
    sendJson(res, code, body);
  };
  const status = subresource === "status" ? ("status" as const) : undefined;
  const objName = name ?? "";
  if (verb === "list" || verb === "get" || verb === "watch")
    checkResourceVersion(query.get("resourceVersion"));
  // A read not older than a resourceVersion this server has yet to reach waits for it, as the
  // watch cache does, then fails with a 504 (store/fresh-enough.ts).
  const atLeast = verb === "list" || verb === "get" ? minimumRv(query) : undefined;
  if (atLeast !== undefined)
    await waitUntilFresh(registry.store, atLeast, ctx.resourceVersionWaitMs);

  switch (verb) {
    case "watch": {
      const selector = registry.selector(
        def,
        query.get("labelSelector"),
        name ? `metadata.name=${name}` : query.get("fieldSelector"),
      );
      const timeout = query.get("timeoutSeconds");
      await serveWatch(ctx, req, res, rr, {
        resourceVersion: query.get("resourceVersion") ?? undefined,
        selector,
        allowBookmarks: query.get("allowWatchBookmarks") === "true",
        sendInitialEvents: query.get("sendInitialEvents") === "true",
        timeoutSeconds: timeout ? Number(timeout) : undefined,
        table,
      });
      return;
    }
    case "list": {
      const selector = registry.selector(
        def,
        query.get("labelSelector"),
        query.get("fieldSelector"),
      );
      const { items, resourceVersion } = registry.list(def, namespace, selector);
      if (table) sendJson(res, 200, toTable(def.table, items, resourceVersion, table, ctx.now()));
      else sendJson(res, 200, listBody(rr, items, resourceVersion));
      return;
    }
    case "get": {
      if (subresource === "scale")
        return sendJson(res, 200, getScale(registry, def, namespace, objName));
      const obj = registry.get(def, namespace, objName);
      if (table)
        sendJson(
          res,
          200,
          toTable(def.table, [obj], obj.metadata.resourceVersion, table, ctx.now()),
        );
      else sendJson(res, 200, obj);
      return;
    }
    case "create": {
      if (servingOf(def, registry.store) === "terminating")
        throw new ApiError(
          405,
          "MethodNotAllowed",
          "create not allowed while custom resource definition is terminating",
          { group: def.group, kind: def.plural },
        );
      const body = await readObjectBody(req);
      sendWithWarnings(201, registry.create(def, namespace, body, write));
      return;
    }
    case "update": {
      const body = await readObjectBody(req);
      if (subresource === "scale")
        return sendWithWarnings(200, updateScale(registry, def, namespace, objName, body, write));
      sendWithWarnings(
        200,
        registry.update(def, namespace, objName, body, { ...write, subresource: status }),
      );
      return;
    }
    case "patch": {
      const type = patchTypeOf(req.headers["content-type"], def);
      const body = decodePatchBody(type, await readBody(req));
      if (subresource === "scale")
        return sendWithWarnings(
          200,
          patchScale(registry, def, namespace, objName, type, body, write),
        );
      sendWithWarnings(
        200,
        registry.patch(def, namespace, objName, type, body, { ...write, subresource: status }),
      );
      return;
    }
    case "delete": {
      const opts = deleteOptions(query, parseJson(await readBody(req)));
      const result = registry.delete(def, namespace, objName, opts);
      sendJson(res, 200, result.finished ? deletedStatus(rr, result.object) : result.object);
      return;
    }
    case "deletecollection": {
      const opts = deleteOptions(query, parseJson(await readBody(req)));
      const selector = registry.selector(
        def,
        query.get("labelSelector"),
        query.get("fieldSelector"),
      );
      const { items } = registry.list(def, namespace, selector);
      const deleted: KObject[] = [];
      for (const item of items) {
        try {
          deleted.push(
            registry.delete(def, item.metadata.namespace, item.metadata.name ?? "", opts).object,
          );
        } catch (e) {
          if (!(e instanceof ApiError && e.status.code === 404)) throw e;
        }
      }
      sendJson(res, 200, listBody(rr, deleted, String(registry.store.currentRv)));
      return;
    }
  }
}
