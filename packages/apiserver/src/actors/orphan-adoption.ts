/**
 * A Deployment made again over the ReplicaSets its namesake left behind with
 * `kubectl delete --cascade=orphan` (no controller any more) adopts every one its selector
 * matches, as the real controller's ClaimReplicaSets does — not only the one of its template:
 * old revisions too, so `rollout history` goes on from the highest and a later delete collects
 * them all. They are planned as they are — running pods stay, ready — instead of being replaced.
 * A ReplicaSet still controlled by a deleted namesake is the garbage collector's, not adopted
 * (actors/replica-set-simulator.ts waits for its name), and so is one being deleted.
 */
import { clone, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { podResource } from "../resources/pod.ts";
import { replicaSetResource } from "../resources/replica-set.ts";
import { formatLabelSelector, matchesLabels, parseLabelSelector } from "../selectors.ts";
import { REVISION_ANNOTATION, replicaSetOf } from "./pod-template-hash.ts";
import type { SetPlan } from "./rollout-plan.ts";

/**
 * The orphaned ReplicaSets `d`'s selector matches, as plans, oldest revision first; unready pods
 * ready at `readyAt`.
 */
export function orphansOf(registry: Registry, d: KObject, readyAt: number): SetPlan[] {
  const namespace = d.metadata.namespace;
  const selector = parseLabelSelector(formatLabelSelector((d.spec as Obj | undefined)?.selector));
  // An empty selector matches nothing here (validation refuses it on a Deployment anyway).
  if (selector.length === 0) return [];
  const own = replicaSetOf(d);
  return registry.store
    .list(replicaSetResource, namespace)
    .filter(
      (rs) =>
        !rs.metadata.deletionTimestamp &&
        !rs.metadata.ownerReferences?.some((r) => r.controller) &&
        matchesLabels(selector, rs),
    )
    .map((rs) =>
      planOf(registry, rs, rs.metadata.name === own.name ? own.hash : hashOf(rs), readyAt),
    )
    .sort((a, b) => a.revision - b.revision);
}

function planOf(registry: Registry, rs: KObject, hash: string, readyAt: number): SetPlan {
  const pods = registry.store
    .list(podResource, rs.metadata.namespace)
    .filter(
      (p) =>
        !p.metadata.deletionTimestamp &&
        p.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid),
    );
  const ready = pods.filter(isReady).length;
  const revision = Number(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? 1);
  return {
    hash,
    name: rs.metadata.name ?? "",
    template: templateOf(rs),
    revision: Number.isInteger(revision) && revision > 0 ? revision : 1,
    replicas: pods.length,
    ready,
    pending: pods.length > ready ? [{ count: pods.length - ready, readyAt }] : [],
  };
}

type Obj = Record<string, unknown>;

/** The ReplicaSet's pod-template-hash label, the key its Deployment's plan knows it by. */
function hashOf(rs: KObject): string {
  return rs.metadata.labels?.["pod-template-hash"] ?? rs.metadata.name ?? "";
}

/** Its pod template without the hash label, as the Deployment would have had it. */
function templateOf(rs: KObject): unknown {
  const template = clone((rs.spec as Obj | undefined)?.template ?? {}) as Obj;
  const meta = template.metadata as { labels?: Record<string, string> } | undefined;
  if (meta?.labels) delete meta.labels["pod-template-hash"];
  return template;
}

function isReady(pod: KObject): boolean {
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] }).conditions;
  return conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}
