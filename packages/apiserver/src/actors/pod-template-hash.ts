/**
 * How a Deployment's ReplicaSets are named and numbered: `<deployment>-<pod-template-hash>`, and
 * the `deployment.kubernetes.io/revision` annotation both carry.
 */
import { createHash } from "node:crypto";
import { isPlainObject, type KObject } from "../object.ts";

export const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";

/**
 * The ReplicaSet a Deployment's current pod template runs in: `<deployment>-<pod-template-hash>`.
 * The hash is of the template's meaning, as the real one hashes the Go struct: key order, null
 * fields (the `creationTimestamp: null` a `rollout undo` writes) and the hash label itself do not
 * count, so a template restored from an old ReplicaSet names that ReplicaSet again.
 * actors/replica-set-simulator.ts keeps it as an object; its name shows in the Deployment's
 * conditions too.
 */
export function replicaSetOf(d: KObject): { name: string; hash: string } {
  const spec = (d.spec ?? {}) as { template?: unknown };
  const hash = createHash("sha256")
    .update(JSON.stringify(spec.template ?? {}, canonical))
    .digest("hex")
    .slice(0, 10);
  return { name: `${d.metadata.name}-${hash}`, hash };
}

function canonical(key: string, value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    if (value[k] === null || (k === "pod-template-hash" && key === "labels")) continue;
    sorted[k] = value[k];
  }
  return sorted;
}
