/**
 * The autoscaling/v1 Scale view of a Deployment (`…/deployments/{name}/scale`), what
 * `kubectl scale` reads and patches. Writing a Scale is an update of the Deployment's
 * spec.replicas, with the Scale's resourceVersion (if any) as precondition.
 */
import { badRequest, conflict, invalid } from "./errors.ts";
import { clone, isPlainObject, type KObject } from "./object.ts";
import { applyPatch, type PatchType } from "./patch/apply-patch.ts";
import type { Registry, WriteOptions } from "./registry.ts";
import { deploymentSelector } from "./resources/deployment.ts";
import type { ResourceDef } from "./resources/resource.ts";

export function toScale(d: KObject): KObject {
  const m = d.metadata;
  const spec = (d.spec ?? {}) as { replicas?: number };
  const status = (d.status ?? {}) as { replicas?: number };
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: deploymentSelector(d) },
  };
}

export function getScale(
  registry: Registry,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): KObject {
  return toScale(registry.get(def, namespace, name));
}

export function updateScale(
  registry: Registry,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
  body: unknown,
  opts: WriteOptions = {},
): KObject {
  const old = registry.get(def, namespace, name);
  if (!isPlainObject(body)) throw badRequest("the body of the request must be a Scale object");
  const meta = (isPlainObject(body.metadata) ? body.metadata : {}) as { resourceVersion?: string };
  if (meta.resourceVersion && meta.resourceVersion !== old.metadata.resourceVersion)
    throw conflict(def, name);
  const replicas = isPlainObject(body.spec) ? body.spec.replicas : undefined;
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid("Scale.autoscaling", name, "autoscaling", "Scale", [
      {
        reason: "FieldValueInvalid",
        field: "spec.replicas",
        detail: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
      },
    ]);
  }
  const next = clone(old);
  (next.spec as Record<string, unknown>).replicas = replicas;
  return toScale(registry.update(def, namespace, name, next, opts));
}

export function patchScale(
  registry: Registry,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
  type: PatchType,
  patch: unknown,
  opts: WriteOptions = {},
): KObject {
  const patched = applyPatch(type, getScale(registry, def, namespace, name), patch);
  return updateScale(registry, def, namespace, name, patched, opts);
}
