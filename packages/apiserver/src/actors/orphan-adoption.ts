/**
 * A Deployment made again over the ReplicaSet its namesake left behind with
 * `kubectl delete --cascade=orphan` (same template, so same name; no controller any more) adopts
 * it with its pods, as the real controller claims the orphans its selector matches: they are
 * planned as they are — running pods stay, ready — instead of being replaced. A ReplicaSet still
 * controlled by a deleted namesake is the garbage collector's, not adopted
 * (actors/replica-set-simulator.ts waits for its name).
 */
import { clone, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { podResource } from "../resources/pod.ts";
import { replicaSetResource } from "../resources/replica-set.ts";
import { REVISION_ANNOTATION, replicaSetOf } from "./pod-template-hash.ts";
import type { SetPlan } from "./rollout-plan.ts";

/** The orphaned ReplicaSet of `d`'s template as a plan, or none; unready pods ready at `readyAt`. */
export function orphanOf(registry: Registry, d: KObject, readyAt: number): SetPlan | undefined {
  const { name, hash } = replicaSetOf(d);
  const namespace = d.metadata.namespace;
  const rs = registry.store.get(replicaSetResource, namespace, name);
  if (!rs || rs.metadata.ownerReferences?.some((r) => r.controller)) return undefined;
  const pods = registry.store
    .list(podResource, namespace)
    .filter(
      (p) =>
        !p.metadata.deletionTimestamp &&
        p.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid),
    );
  const ready = pods.filter(isReady).length;
  const revision = Number(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? 1);
  return {
    hash,
    name,
    template: clone((d.spec as { template?: unknown }).template),
    revision: Number.isInteger(revision) && revision > 0 ? revision : 1,
    replicas: pods.length,
    ready,
    pending: pods.length > ready ? [{ count: pods.length - ready, readyAt }] : [],
  };
}

function isReady(pod: KObject): boolean {
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] }).conditions;
  return conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}
