/**
 * A simulated kube-controller-manager Deployment controller. For each new generation of a
 * Deployment it writes status the way the real one does for a rollout (sample-controller.md §2.2):
 *
 *   1. revision annotation + Progressing=True NewReplicaSetCreated      (after 1 step delay)
 *   2. observedGeneration, unavailableReplicas, Available=False           (after 2 step delays)
 *   3. replicas = updatedReplicas = desired, Progressing ReplicaSetUpdated (after 3 step delays)
 *   4. ready = available = desired, Available=True, NewReplicaSetAvailable (after readyDelayMs)
 *
 * A change that keeps the pod template (scale, annotations) skips the new-ReplicaSet steps.
 * Writes go through the registry's /status path, so they never bump generation and each one is
 * a MODIFIED watch event. A newer generation cancels the pending steps of the older one.
 */
import { createHash } from "node:crypto";
import { ApiError } from "../errors.ts";
import { clone, deepEqual, isPlainObject, rfc3339, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import type { StoreChange } from "../store/object-store.ts";

export const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";

interface Condition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
}

interface Rollout {
  generation: number;
  timers: ReturnType<typeof setTimeout>[];
}

export interface DeploymentControllerOptions {
  readyDelayMs: number;
  stepDelayMs: number;
}

export class DeploymentControllerSim {
  readonly #registry: Registry;
  readonly #opts: DeploymentControllerOptions;
  readonly #rollouts = new Map<string, Rollout>();
  /** Last rolled-out pod template and revision, per Deployment uid. */
  readonly #templates = new Map<string, { template: unknown; revision: number }>();
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry, opts: DeploymentControllerOptions) {
    this.#registry = registry;
    this.#opts = opts;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const r of this.#rollouts.values()) r.timers.forEach(clearTimeout);
    this.#rollouts.clear();
  }

  #onChange(c: StoreChange): void {
    if (c.resource !== deploymentResource) return;
    const uid = c.object.metadata.uid ?? "";
    if (c.type === "DELETED" || c.object.metadata.deletionTimestamp) {
      this.#cancel(uid);
      if (c.type === "DELETED") this.#templates.delete(uid);
      return;
    }
    const generation = c.object.metadata.generation ?? 1;
    const observed = (c.object.status as DeploymentStatus | undefined)?.observedGeneration ?? 0;
    if (generation <= observed || this.#rollouts.get(uid)?.generation === generation) return;
    this.#cancel(uid);
    this.#plan(c.object, uid, generation);
  }

  #cancel(uid: string): void {
    this.#rollouts.get(uid)?.timers.forEach(clearTimeout);
    this.#rollouts.delete(uid);
  }

  #plan(d: KObject, uid: string, generation: number): void {
    const spec = d.spec as { template?: unknown; replicas?: number };
    const known = this.#templates.get(uid);
    const newTemplate = !known || !deepEqual(known.template, spec.template);
    const revision = newTemplate ? (known?.revision ?? 0) + 1 : known.revision;
    this.#templates.set(uid, { template: clone(spec.template), revision });
    const rsName = replicaSetOf(d).name;
    const { stepDelayMs: step, readyDelayMs: ready } = this.#opts;
    const rollout: Rollout = { generation, timers: [] };
    this.#rollouts.set(uid, rollout);
    const at = (ms: number, fn: (d: KObject, s: DeploymentStatus, desired: number) => void) =>
      rollout.timers.push(setTimeout(() => this.#write(d, fn), ms));
    at(step, (cur, s) => {
      cur.metadata.annotations = {
        ...cur.metadata.annotations,
        [REVISION_ANNOTATION]: String(revision),
      };
      if (newTemplate)
        setCondition(
          s,
          "Progressing",
          "True",
          "NewReplicaSetCreated",
          `Created new replica set "${rsName}"`,
        );
    });
    at(2 * step, (_cur, s, desired) => {
      s.observedGeneration = generation;
      if (newTemplate) {
        s.replicas ??= 0;
        s.updatedReplicas = 0;
      }
      setAvailability(s, desired);
    });
    at(3 * step, (_cur, s, desired) => {
      s.replicas = desired;
      s.updatedReplicas = desired;
      // Scaling down: surplus pods go away at once, they were ready already.
      if ((s.readyReplicas ?? 0) > desired) s.readyReplicas = desired;
      if ((s.availableReplicas ?? 0) > desired) s.availableReplicas = desired;
      setCondition(
        s,
        "Progressing",
        "True",
        "ReplicaSetUpdated",
        `ReplicaSet "${rsName}" is progressing.`,
      );
      setAvailability(s, desired);
    });
    at(Math.max(ready, 3 * step + 1), (_cur, s, desired) => {
      s.observedGeneration = generation;
      s.replicas = desired;
      s.updatedReplicas = desired;
      s.readyReplicas = desired;
      s.availableReplicas = desired;
      setAvailability(s, desired);
      setCondition(
        s,
        "Progressing",
        "True",
        "NewReplicaSetAvailable",
        `ReplicaSet "${rsName}" has successfully progressed.`,
      );
      if (desired === 0) {
        delete s.readyReplicas;
        delete s.availableReplicas;
      }
      this.#rollouts.delete(d.metadata.uid ?? "");
    });
  }

  /** Reads the current Deployment, lets `fn` change it, writes it through /status. */
  #write(d: KObject, fn: (cur: KObject, s: DeploymentStatus, desired: number) => void): void {
    const { namespace, name } = d.metadata;
    const current = this.#registry.store.get(deploymentResource, namespace, name ?? "");
    if (!current || current.metadata.uid !== d.metadata.uid) return;
    const next = clone(current);
    const status = (next.status ?? {}) as DeploymentStatus;
    next.status = status;
    fn(next, status, (next.spec as { replicas?: number }).replicas ?? 1);
    delete next.metadata.resourceVersion;
    try {
      this.#registry.update(deploymentResource, namespace, name ?? "", next, {
        subresource: "status",
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }
}

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

/** Like deploymentutil.SetDeploymentCondition: an unchanged condition is left alone; a changed
 * one keeps its transition time if the status did not flip, and moves to the end of the list. */
function setCondition(
  s: DeploymentStatus,
  type: string,
  status: string,
  reason: string,
  message: string,
): void {
  const now = rfc3339(Date.now());
  const conditions = s.conditions ?? [];
  const existing = conditions.find((c) => c.type === type);
  if (existing && existing.status === status && existing.reason === reason) return;
  const lastTransitionTime =
    existing && existing.status === status ? existing.lastTransitionTime : now;
  s.conditions = [
    ...conditions.filter((c) => c.type !== type),
    { type, status, lastUpdateTime: now, lastTransitionTime, reason, message },
  ];
}

/** Available=True once available pods reach desired − maxUnavailable (25 %, rounded down). */
function setAvailability(s: DeploymentStatus, desired: number): void {
  const available = s.availableReplicas ?? 0;
  const unavailable = Math.max(0, desired - available);
  if (unavailable > 0) s.unavailableReplicas = unavailable;
  else delete s.unavailableReplicas;
  const minimum = desired - Math.floor(desired * 0.25);
  if (available >= minimum)
    setCondition(
      s,
      "Available",
      "True",
      "MinimumReplicasAvailable",
      "Deployment has minimum availability.",
    );
  else
    setCondition(
      s,
      "Available",
      "False",
      "MinimumReplicasUnavailable",
      "Deployment does not have minimum availability.",
    );
}
