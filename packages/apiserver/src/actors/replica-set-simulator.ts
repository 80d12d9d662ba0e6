/**
 * The ReplicaSets of the simulated Deployments and their pods, made as the Deployment
 * controller's rollout plan says (actors/rollout-plan.ts), on each of its status writes, so
 * `kubectl get rs,pods` agrees with `kubectl get deployments` — the ReplicaSet controller's and
 * the kubelet's part of a cluster:
 *
 * - one ReplicaSet per pod template a Deployment has run, `<deployment>-<pod-template-hash>`,
 *   owned by the Deployment, its selector and template labelled with the hash, its revision the
 *   plan's; it has as many pods as the plan gives it, the first (oldest) `ready` of them Running
 *   and ready, the others ContainerCreating; scaling down removes the newest first;
 * - a ReplicaSet the plan no longer has (beyond the Deployment's `revisionHistoryLimit`) is deleted;
 * - a Deployment made again waits for its deleted namesake's ReplicaSet to be collected, and
 *   adopts one left orphaned (`--cascade=orphan`) with its pods (actors/orphan-adoption.ts);
 * - each pod is named `<replicaset>-<5 chars>` and owned by its ReplicaSet. A deleted Deployment's
 *   ReplicaSets, and then their pods, go through the garbage collector, as on a cluster.
 *
 * ScalingReplicaSet Events are worded as the Deployment controller's: "Scaled up replica set X
 * to N" for one made with N pods, "Scaled up|down replica set X to N from M" for a scale.
 *
 * Both kinds are read-only to clients. Writes are deferred out of the store's change
 * notification, one reconcile per Deployment per turn; a ReplicaSet is written before its pods,
 * so the collector never sees a pod whose owner does not exist yet.
 */
import { ApiError } from "../errors.ts";
import {
  clone,
  deepEqual,
  isPlainObject,
  rfc3339,
  type KObject,
  type OwnerReference,
} from "../object.ts";
import type { Registry } from "../registry.ts";
import { deploymentResource } from "../resources/deployment.ts";
import { NODE_IP, NODE_NAME } from "../resources/node.ts";
import { podResource } from "../resources/pod.ts";
import { replicaSetResource } from "../resources/replica-set.ts";
import type { StoreChange } from "../store/object-store.ts";
import { ClusterEvents } from "./cluster-events.ts";
import { REVISION_ANNOTATION } from "./pod-template-hash.ts";
import type { DeploymentRef, RolloutPlans, SetPlan } from "./rollout-plan.ts";

const HASH_LABEL = "pod-template-hash";

/**
 * The current template's ReplicaSet name is still another Deployment's: one of the same name,
 * deleted, whose ReplicaSet the garbage collector has yet to take (the Foo controller recreates a
 * deleted Deployment at once). The reconcile is tried again this much later.
 */
class NameHeld extends Error {}
const NAME_HELD_RETRY_MS = 50;

type Obj = Record<string, unknown>;

/** One ReplicaSet the simulator made (or adopted), and its pods, oldest first. */
interface ReplicaSetPods {
  name: string;
  pods: string[];
}

export class ReplicaSetSimulator {
  readonly #registry: Registry;
  readonly #plans: RolloutPlans;
  readonly #events: ClusterEvents;
  /** Per Deployment uid, per template hash. */
  readonly #deployments = new Map<string, Map<string, ReplicaSetPods>>();
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  #nextIp = 0;
  #unsubscribe: (() => void)[] = [];

  constructor(registry: Registry, plans: RolloutPlans) {
    this.#registry = registry;
    this.#plans = plans;
    this.#events = new ClusterEvents(registry);
  }

  start(): void {
    if (this.#unsubscribe.length > 0) return;
    this.#unsubscribe = [
      this.#registry.store.subscribe((c) => this.#onChange(c)),
      this.#plans.subscribe((d) => this.#schedule(d, 0)),
    ];
  }

  stop(): void {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    for (const t of this.#pending.values()) clearTimeout(t);
    this.#pending.clear();
  }

  #onChange(c: StoreChange): void {
    if (c.resource !== deploymentResource) return;
    const { uid = "", namespace = "default", name = "" } = c.object.metadata;
    this.#schedule({ uid, namespace, name }, 0);
  }

  #schedule(ref: DeploymentRef, delayMs: number): void {
    const { uid } = ref;
    if (this.#pending.has(uid)) return;
    this.#pending.set(
      uid,
      setTimeout(() => {
        this.#pending.delete(uid);
        try {
          this.#reconcile(ref);
        } catch (e) {
          if (e instanceof NameHeld) this.#schedule(ref, NAME_HELD_RETRY_MS);
          // The garbage collector or a namespace deletion got there first: the next change
          // tries again.
          else if (!(e instanceof ApiError)) throw e;
        }
      }, delayMs),
    );
  }

  #reconcile({ uid, namespace, name }: DeploymentRef): void {
    const d = this.#registry.store.get(deploymentResource, namespace, name);
    if (!d || d.metadata.uid !== uid || d.metadata.deletionTimestamp) {
      this.#deployments.delete(uid);
      return;
    }
    const plan = this.#plans.get(uid);
    if (!plan) return;
    const made = this.#deployments.get(uid) ?? new Map<string, ReplicaSetPods>();
    this.#deployments.set(uid, made);
    // In the plan's order, the current ReplicaSet last: old pods go before new ones are made.
    for (const set of plan.sets.values()) {
      const pods = made.get(set.hash) ?? { name: set.name, pods: [] };
      made.set(set.hash, pods);
      this.#scale(d, set, pods);
    }
    // Gone from the plan (revisionHistoryLimit): deleted, its pods after it by the collector.
    for (const [hash, { name: rsName }] of made) {
      if (plan.sets.has(hash)) continue;
      made.delete(hash);
      const rs = this.#registry.store.get(replicaSetResource, namespace, rsName);
      if (rs && controlledBy(rs, uid)) this.#registry.delete(replicaSetResource, namespace, rsName);
    }
  }

  /** Writes the ReplicaSet wanting the plan's pods, then makes its pods so. */
  #scale(d: KObject, set: SetPlan, made: ReplicaSetPods): void {
    const namespace = d.metadata.namespace ?? "default";
    const rs = this.#writeReplicaSet(d, set, made);
    made.pods = made.pods.filter((pod) => this.#registry.store.get(podResource, namespace, pod));
    // Scaling down removes the newest pods first, as a ReplicaSet does: the unready ones.
    for (const pod of made.pods.splice(set.replicas)) this.#delete(rs, pod);
    while (made.pods.length < set.replicas) made.pods.push(this.#createPod(rs));
    made.pods.forEach((pod, i) => this.#setReady(namespace, pod, i < set.ready));
    this.#writeReplicaSet(d, set, made, { pods: made.pods.length, ready: set.ready });
  }

  /** Creates or updates the ReplicaSet of `set`: its spec, and its status once its pods are known. */
  #writeReplicaSet(
    d: KObject,
    set: SetPlan,
    made: ReplicaSetPods,
    observed?: { pods: number; ready: number },
  ): KObject {
    const namespace = d.metadata.namespace ?? "default";
    const existing = this.#registry.store.get(replicaSetResource, namespace, set.name);
    const controller = existing?.metadata.ownerReferences?.find((r) => r.controller);
    if (controller && controller.uid !== d.metadata.uid) throw new NameHeld();
    const base = existing ?? newReplicaSet(d, set);
    const adopt = existing !== undefined && !controller;
    if (adopt) {
      // An orphan (its Deployment deleted with --cascade=orphan) of this template: adopted, with
      // its pods, the ready ones first, as the plan counts them (actors/orphan-adoption.ts).
      const pods = this.#registry.store
        .list(podResource, namespace)
        .filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === existing.metadata.uid));
      made.pods = [...pods.filter(isReady), ...pods.filter((p) => !isReady(p))].map(
        (p) => p.metadata.name ?? "",
      );
    }
    // Shallow copies: the registry copies what it stores, and the stored snapshot is frozen.
    const next: KObject = {
      ...base,
      metadata: {
        ...base.metadata,
        annotations: { ...base.metadata.annotations, [REVISION_ANNOTATION]: String(set.revision) },
        ...(adopt && {
          ownerReferences: [...(base.metadata.ownerReferences ?? []), controllerRef(d)],
        }),
      },
      spec: { ...(base.spec as Obj), replicas: set.replicas },
    };
    if (observed) {
      next.status = {
        replicas: observed.pods,
        ...(observed.pods > 0 && { fullyLabeledReplicas: observed.pods }),
        ...(observed.ready > 0 && {
          readyReplicas: observed.ready,
          availableReplicas: observed.ready,
        }),
        observedGeneration: existing?.metadata.generation ?? 1,
      };
    }
    if (existing && deepEqual(next, existing)) return existing;
    delete next.metadata.resourceVersion;
    const written = existing
      ? this.#registry.update(replicaSetResource, namespace, set.name, next)
      : this.#registry.create(replicaSetResource, namespace, next);
    const from = (existing?.spec as { replicas?: number } | undefined)?.replicas;
    const to = set.replicas;
    if (from === undefined ? to > 0 : to !== from)
      this.#events.record(
        d,
        "deployment-controller",
        "ScalingReplicaSet",
        from === undefined
          ? `Scaled up replica set ${set.name} to ${to}`
          : `Scaled ${to > from ? "up" : "down"} replica set ${set.name} to ${to} from ${from}`,
      );
    return written;
  }

  #createPod(rs: KObject): string {
    const template = ((rs.spec as Obj | undefined)?.template ?? {}) as Obj;
    const meta = (isPlainObject(template.metadata) ? template.metadata : {}) as Obj;
    const spec = clone((isPlainObject(template.spec) ? template.spec : {}) as Obj);
    const pod = this.#registry.create(podResource, rs.metadata.namespace, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        generateName: `${rs.metadata.name}-`,
        labels: clone(meta.labels ?? {}),
        ownerReferences: [controllerRef(rs)],
      },
      spec: { ...spec, nodeName: NODE_NAME, serviceAccountName: "default" },
      status: podStatus(spec, false, this.#ip(), rfc3339(Date.now())),
    });
    const name = pod.metadata.name ?? "";
    this.#events.record(rs, "replicaset-controller", "SuccessfulCreate", `Created pod: ${name}`);
    this.#events.record(
      pod,
      "default-scheduler",
      "Scheduled",
      `Successfully assigned ${pod.metadata.namespace}/${name} to ${NODE_NAME}`,
    );
    return name;
  }

  #setReady(namespace: string, name: string, ready: boolean): void {
    const pod = this.#registry.store.get(podResource, namespace, name);
    if (!pod) return;
    const status = (pod.status ?? {}) as Obj;
    const spec = (pod.spec ?? {}) as Obj;
    const nextStatus = podStatus(
      spec,
      ready,
      String(status.podIP ?? this.#ip()),
      String(status.startTime ?? rfc3339(Date.now())),
      status,
    );
    if (deepEqual(nextStatus, pod.status)) return;
    const updated = this.#registry.update(podResource, namespace, name, {
      ...pod,
      status: nextStatus,
    });
    if (!ready || status.phase === "Running") return;
    for (const c of Array.isArray(spec.containers) ? (spec.containers as Obj[]) : []) {
      const container = String(c.name);
      this.#events.record(
        updated,
        "kubelet",
        "Pulled",
        `Container image "${String(c.image)}" already present on machine`,
        container,
      );
      this.#events.record(
        updated,
        "kubelet",
        "Created",
        `Created container ${container}`,
        container,
      );
      this.#events.record(
        updated,
        "kubelet",
        "Started",
        `Started container ${container}`,
        container,
      );
    }
  }

  #delete(rs: KObject, name: string): void {
    const namespace = rs.metadata.namespace;
    if (!this.#registry.store.get(podResource, namespace, name)) return;
    this.#registry.delete(podResource, namespace, name);
    this.#events.record(rs, "replicaset-controller", "SuccessfulDelete", `Deleted pod: ${name}`);
  }

  #ip(): string {
    const n = this.#nextIp++;
    return `10.244.${Math.floor(n / 250) % 250}.${(n % 250) + 2}`;
  }
}

/** A ReplicaSet of `d` for the plan's `set`: its template, labelled and selected by its hash. */
function newReplicaSet(d: KObject, set: SetPlan): KObject {
  const spec = (d.spec ?? {}) as Obj;
  const template = clone((isPlainObject(set.template) ? set.template : {}) as Obj);
  const meta = (isPlainObject(template.metadata) ? template.metadata : {}) as Obj;
  const labels = { ...(meta.labels as Record<string, string>), [HASH_LABEL]: set.hash };
  template.metadata = { ...meta, labels };
  const selector = clone((isPlainObject(spec.selector) ? spec.selector : {}) as Obj);
  selector.matchLabels = {
    ...(selector.matchLabels as Record<string, string>),
    [HASH_LABEL]: set.hash,
  };
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: set.name, labels, ownerReferences: [controllerRef(d)] },
    spec: { replicas: 0, selector, template },
    status: { replicas: 0 },
  };
}

function controlledBy(o: KObject, uid: string): boolean {
  return o.metadata.ownerReferences?.some((r) => r.controller && r.uid === uid) ?? false;
}

function isReady(pod: KObject): boolean {
  const conditions = (pod.status as Obj | undefined)?.conditions;
  return Array.isArray(conditions)
    ? (conditions as Obj[]).some((c) => c.type === "Ready" && c.status === "True")
    : false;
}

/** The reference a controller's object carries to the object that controls it. */
function controllerRef(owner: KObject): OwnerReference {
  const { name = "", uid = "" } = owner.metadata;
  return {
    apiVersion: owner.apiVersion ?? "",
    kind: owner.kind ?? "",
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
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
    hostIP: NODE_IP,
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
