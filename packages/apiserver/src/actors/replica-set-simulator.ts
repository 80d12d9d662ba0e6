/**
 * The ReplicaSets of the simulated Deployments and their pods, kept in step with each
 * Deployment's status as kube-controller-manager would keep them, so `kubectl get rs,pods` agrees
 * with `kubectl get deployments`:
 *
 * - one ReplicaSet per pod template a Deployment has run, `<deployment>-<pod-template-hash>`,
 *   owned by the Deployment, its selector and template labelled with the hash; an older one keeps
 *   its place (revision history) with 0 replicas once the rollout is done;
 * - the current template's ReplicaSet wants `status.updatedReplicas` pods, the first
 *   `status.readyReplicas` of them Running and ready, the others ContainerCreating; the newest
 *   older one wants `status.replicas − status.updatedReplicas` while a rollout replaces them;
 * - old ReplicaSets with no pods beyond the Deployment's `revisionHistoryLimit` are deleted;
 * - a Deployment made again waits for its deleted namesake's ReplicaSet to be collected, and
 *   adopts one left orphaned (`--cascade=orphan`) with its pods;
 * - each pod is named `<replicaset>-<5 chars>` and owned by its ReplicaSet. A deleted Deployment's
 *   ReplicaSets, and then their pods, go through the garbage collector, as on a cluster.
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
import { REVISION_ANNOTATION, replicaSetOf } from "./deployment-controller.ts";

const HASH_LABEL = "pod-template-hash";

/**
 * The current template's ReplicaSet name is still another Deployment's: one of the same name,
 * deleted, whose ReplicaSet the garbage collector has yet to take (the Foo controller recreates a
 * deleted Deployment at once). The reconcile is tried again this much later.
 */
class NameHeld extends Error {}
const NAME_HELD_RETRY_MS = 50;

type Obj = Record<string, unknown>;

interface DeploymentStatus {
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
}

/** What the simulator remembers of one ReplicaSet: its revision and its pods, oldest first. */
interface ReplicaSetPods {
  name: string;
  revision: number;
  pods: string[];
}

/** A Deployment's ReplicaSets by template hash, the one current last. */
interface DeploymentSets {
  current: string;
  revisions: number;
  sets: Map<string, ReplicaSetPods>;
}

export class ReplicaSetSimulator {
  readonly #registry: Registry;
  readonly #events: ClusterEvents;
  readonly #deployments = new Map<string, DeploymentSets>();
  readonly #pending = new Map<string, ReturnType<typeof setTimeout>>();
  #nextIp = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(registry: Registry) {
    this.#registry = registry;
    this.#events = new ClusterEvents(registry);
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
    const { uid = "", namespace = "default", name = "" } = c.object.metadata;
    this.#schedule(uid, namespace, name, 0);
  }

  #schedule(uid: string, namespace: string, name: string, delayMs: number): void {
    if (this.#pending.has(uid)) return;
    this.#pending.set(
      uid,
      setTimeout(() => {
        this.#pending.delete(uid);
        try {
          this.#reconcile(uid, namespace, name);
        } catch (e) {
          if (e instanceof NameHeld) this.#schedule(uid, namespace, name, NAME_HELD_RETRY_MS);
          // The garbage collector or a namespace deletion got there first: the next change
          // tries again.
          else if (!(e instanceof ApiError)) throw e;
        }
      }, delayMs),
    );
  }

  #reconcile(uid: string, namespace: string, name: string): void {
    const d = this.#registry.store.get(deploymentResource, namespace, name);
    if (!d || d.metadata.uid !== uid || d.metadata.deletionTimestamp) {
      this.#deployments.delete(uid);
      return;
    }
    const state = this.#deployments.get(uid) ?? { current: "", revisions: 0, sets: new Map() };
    this.#deployments.set(uid, state);
    const status = (d.status ?? {}) as DeploymentStatus;
    const updated = status.updatedReplicas ?? 0;
    const ready = Math.min(status.readyReplicas ?? 0, updated);
    const older = Math.max(0, (status.replicas ?? 0) - updated);
    const { name: rsName, hash } = replicaSetOf(d);
    const { sets } = state;
    if (state.current !== hash) {
      // A template becoming current (again, on a rollback) takes the next revision, as
      // deploymentutil.Revision does; the map keeps the ReplicaSets in the order they were current.
      const set = sets.get(hash) ?? { name: rsName, revision: 0, pods: [] };
      set.revision = ++state.revisions;
      sets.delete(hash);
      sets.set(hash, set);
      state.current = hash;
    }
    const olderHashes = [...sets.keys()].filter((h) => h !== hash);
    const newestOlder = olderHashes.at(-1);
    // Scale the current ReplicaSet last: while a rollout replaces pods, the old ones go first.
    for (const h of [...olderHashes, hash]) {
      const want = h === hash ? updated : h === newestOlder ? older : 0;
      this.#scale(d, h, sets.get(h) as ReplicaSetPods, want, h === hash ? ready : want);
    }
    // Old ReplicaSets with no pods left beyond spec.revisionHistoryLimit go, oldest first: a
    // controller that changes the template every pass must not grow the cluster without end.
    const limit = (d.spec as { revisionHistoryLimit?: number }).revisionHistoryLimit ?? 10;
    const idle = olderHashes.filter((h) => sets.get(h)?.pods.length === 0);
    for (const h of idle.slice(0, Math.max(0, idle.length - limit))) {
      const set = sets.get(h) as ReplicaSetPods;
      sets.delete(h);
      if (this.#registry.store.get(replicaSetResource, namespace, set.name))
        this.#registry.delete(replicaSetResource, namespace, set.name);
    }
  }

  /** Writes the ReplicaSet wanting `want` pods, then makes its pods so, the first `ready` ready. */
  #scale(d: KObject, hash: string, set: ReplicaSetPods, want: number, ready: number): void {
    const namespace = d.metadata.namespace ?? "default";
    const rs = this.#writeReplicaSet(d, hash, set, want);
    set.pods = set.pods.filter((pod) => this.#registry.store.get(podResource, namespace, pod));
    // Scaling down removes the newest pods first, as a ReplicaSet does.
    for (const pod of set.pods.splice(want)) this.#delete(rs, pod);
    while (set.pods.length < want) set.pods.push(this.#createPod(rs));
    set.pods.forEach((pod, i) => this.#setReady(namespace, pod, i < ready));
    this.#writeReplicaSet(d, hash, set, want, { pods: set.pods.length, ready });
  }

  /** Creates or updates a ReplicaSet of `d`: its spec, and its status once its pods are known. */
  #writeReplicaSet(
    d: KObject,
    hash: string,
    set: ReplicaSetPods,
    replicas: number,
    observed?: { pods: number; ready: number },
  ): KObject {
    const namespace = d.metadata.namespace ?? "default";
    const existing = this.#registry.store.get(replicaSetResource, namespace, set.name);
    const controller = existing?.metadata.ownerReferences?.find((r) => r.controller);
    if (controller && controller.uid !== d.metadata.uid) throw new NameHeld();
    const base = existing ?? this.#newReplicaSet(d, hash, set.name);
    const adopt = existing !== undefined && !controller;
    if (adopt) {
      // An orphan (its Deployment deleted with --cascade=orphan) of this template: adopted, with
      // its pods, as the Deployment controller claims the ReplicaSets its selector matches.
      set.pods = this.#registry.store
        .list(podResource, namespace)
        .filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === existing.metadata.uid))
        .map((p) => p.metadata.name ?? "");
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
      spec: { ...(base.spec as Obj), replicas },
    };
    const from = (existing?.spec as { replicas?: number } | undefined)?.replicas ?? 0;
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
    if (replicas !== from)
      this.#events.record(
        d,
        "deployment-controller",
        "ScalingReplicaSet",
        from === 0
          ? `Scaled up replica set ${set.name} to ${replicas}`
          : `Scaled ${replicas > from ? "up" : "down"} replica set ${set.name} to ${replicas} from ${from}`,
      );
    return written;
  }

  #newReplicaSet(d: KObject, hash: string, name: string): KObject {
    const spec = (d.spec ?? {}) as Obj;
    const template = clone((isPlainObject(spec.template) ? spec.template : {}) as Obj);
    const meta = (isPlainObject(template.metadata) ? template.metadata : {}) as Obj;
    const labels = { ...(meta.labels as Record<string, string>), [HASH_LABEL]: hash };
    template.metadata = { ...meta, labels };
    const selector = clone((isPlainObject(spec.selector) ? spec.selector : {}) as Obj);
    selector.matchLabels = {
      ...(selector.matchLabels as Record<string, string>),
      [HASH_LABEL]: hash,
    };
    return {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name,
        labels,
        ownerReferences: [controllerRef(d)],
      },
      spec: { replicas: 0, selector, template },
      status: { replicas: 0 },
    };
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
