/**
 * The pods of the simulated Deployments, kept in step with each Deployment's status as its
 * ReplicaSets' pods would be, so `kubectl get pods` agrees with `kubectl get deployments`:
 *
 * - `status.updatedReplicas` pods of the current template, named `<replicaset>-<5 chars>` and
 *   labelled with its `pod-template-hash`; the first `status.readyReplicas` of them Running and
 *   ready, the others ContainerCreating;
 * - pods of an older template while `status.replicas` exceeds `status.updatedReplicas`;
 * - a deleted Deployment's pods go with it.
 *
 * Pods are owned by their ReplicaSet (a kind this server does not serve, so the garbage collector
 * leaves them to this simulator) and are read-only to clients. Writes are deferred out of the
 * store's change notification, one reconcile per Deployment per turn.
 */
import { createHash } from "node:crypto";
import { ApiError } from "../errors.ts";
import { clone, deepEqual, isPlainObject, rfc3339, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { podResource } from "../resources/pod.ts";
import type { StoreChange } from "../store/object-store.ts";
import { replicaSetOf } from "./deployment-controller.ts";

/** The one node the simulated pods run on. */
export const NODE_NAME = "loopscope-node";

type Obj = Record<string, unknown>;

interface DeploymentStatus {
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
}

export class PodSimulator {
  readonly #registry: Registry;
  /** Pods by Deployment uid: name → the template hash it runs. */
  readonly #pods = new Map<string, Map<string, string>>();
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  #nextIp = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  start(): void {
    this.#unsubscribe ??= this.#registry.store.subscribe((c) => this.#onChange(c));
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const t of this.#pending.values()) clearTimeout(t);
    this.#pending.clear();
  }

  #onChange(c: StoreChange): void {
    if (c.resource !== deploymentResource) return;
    const uid = c.object.metadata.uid ?? "";
    if (this.#pending.has(uid)) return;
    const { namespace, name } = c.object.metadata;
    this.#pending.set(
      uid,
      setTimeout(() => {
        this.#pending.delete(uid);
        try {
          this.#reconcile(uid, namespace ?? "default", name ?? "");
        } catch (e) {
          // A client or the garbage collector got there first; the next change tries again.
          if (!(e instanceof ApiError)) throw e;
        }
      }, 0),
    );
  }

  #reconcile(uid: string, namespace: string, name: string): void {
    const d = this.#registry.store.get(deploymentResource, namespace, name);
    const pods = this.#pods.get(uid) ?? new Map<string, string>();
    if (!d || d.metadata.uid !== uid || d.metadata.deletionTimestamp) {
      for (const pod of pods.keys()) this.#delete(namespace, pod);
      this.#pods.delete(uid);
      return;
    }
    this.#pods.set(uid, pods);
    const status = (d.status ?? {}) as DeploymentStatus;
    const updated = status.updatedReplicas ?? 0;
    const ready = Math.min(status.readyReplicas ?? 0, updated);
    const older = Math.max(0, (status.replicas ?? 0) - updated);
    const rs = replicaSetOf(d);

    const current = [...pods].filter(([, hash]) => hash === rs.hash).map(([pod]) => pod);
    const old = [...pods].filter(([, hash]) => hash !== rs.hash).map(([pod]) => pod);
    // Scaling down removes the newest pods first, as a ReplicaSet does.
    for (const pod of current.splice(updated).concat(old.splice(older))) {
      this.#delete(namespace, pod);
      pods.delete(pod);
    }
    while (current.length < updated) {
      const pod = this.#create(d, rs);
      pods.set(pod, rs.hash);
      current.push(pod);
    }
    current.forEach((pod, i) => this.#setReady(namespace, pod, i < ready));
  }

  #create(d: KObject, rs: { name: string; hash: string }): string {
    const template = ((d.spec as Obj | undefined)?.template ?? {}) as Obj;
    const meta = (isPlainObject(template.metadata) ? template.metadata : {}) as Obj;
    const spec = clone((isPlainObject(template.spec) ? template.spec : {}) as Obj);
    const pod = this.#registry.create(podResource, d.metadata.namespace, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        generateName: `${rs.name}-`,
        labels: { ...(meta.labels as Record<string, string>), "pod-template-hash": rs.hash },
        ownerReferences: [
          {
            apiVersion: "apps/v1",
            kind: "ReplicaSet",
            name: rs.name,
            uid: replicaSetUid(d.metadata.uid ?? "", rs.hash),
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { ...spec, nodeName: NODE_NAME, serviceAccountName: "default" },
      status: podStatus(spec, false, this.#ip(), rfc3339(Date.now())),
    });
    return pod.metadata.name ?? "";
  }

  #setReady(namespace: string, name: string, ready: boolean): void {
    const pod = this.#registry.store.get(podResource, namespace, name);
    if (!pod) return;
    const status = (pod.status ?? {}) as Obj;
    const next = clone(pod);
    next.status = podStatus(
      (pod.spec ?? {}) as Obj,
      ready,
      String(status.podIP ?? this.#ip()),
      String(status.startTime ?? rfc3339(Date.now())),
      status,
    );
    if (deepEqual(next.status, pod.status)) return;
    this.#registry.update(podResource, namespace, name, next);
  }

  #delete(namespace: string, name: string): void {
    if (!this.#registry.store.get(podResource, namespace, name)) return;
    this.#registry.delete(podResource, namespace, name);
  }

  #ip(): string {
    const n = this.#nextIp++;
    return `10.244.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
  }
}

/** A stable uid for the ReplicaSet of (Deployment, template): the same on every call. */
function replicaSetUid(deploymentUid: string, hash: string): string {
  const h = createHash("sha256").update(`${deploymentUid}/${hash}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A pod's status: Running and ready, or still creating its containers. */
function podStatus(spec: Obj, ready: boolean, ip: string, startTime: string, before?: Obj): Obj {
  const now = rfc3339(Date.now());
  const containers = Array.isArray(spec.containers) ? (spec.containers as Obj[]) : [];
  const was = (type: string, status: string): string => {
    const c = (Array.isArray(before?.conditions) ? (before.conditions as Obj[]) : []).find(
      (x) => x.type === type,
    );
    return c?.status === status ? String(c.lastTransitionTime) : now;
  };
  const condition = (type: string, on: boolean) => ({
    type,
    status: on ? "True" : "False",
    lastProbeTime: null,
    lastTransitionTime: was(type, on ? "True" : "False"),
  });
  return {
    phase: ready ? "Running" : "Pending",
    conditions: [
      condition("Initialized", true),
      condition("Ready", ready),
      condition("ContainersReady", ready),
      condition("PodScheduled", true),
    ],
    hostIP: "10.89.0.2",
    podIP: ip,
    podIPs: [{ ip }],
    startTime,
    qosClass: "BestEffort",
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: "",
      ready,
      started: ready,
      restartCount: 0,
      state: ready
        ? { running: { startedAt: was("ContainersReady", "True") } }
        : { waiting: { reason: "ContainerCreating" } },
    })),
  };
}
