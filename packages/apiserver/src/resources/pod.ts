/**
 * core/v1 Pods, read-only: the pods of the simulated Deployments' ReplicaSets
 * (actors/replica-set-simulator.ts makes them as the simulated Deployment controller's rollout
 * plan says), so `kubectl get pods` shows what a cluster would.
 * Columns as kubectl's pod printer: READY, STATUS (a waiting container's reason, else the phase;
 * Terminating once deleted), RESTARTS, AGE; -o wide adds IP and NODE.
 */
import { isPlainObject, type KObject } from "../object.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import type { ResourceDef } from "./resource.ts";

type Obj = Record<string, unknown>;

/** Fields a pod list may be selected by, besides metadata.name/namespace (as a cluster allows). */
export const POD_FIELD_SELECTORS = [
  "spec.nodeName",
  "spec.restartPolicy",
  "spec.schedulerName",
  "spec.serviceAccountName",
  "status.phase",
  "status.podIP",
  "status.nominatedNodeName",
];

/** What kubectl's STATUS column says of a pod. */
export function podStatusReason(pod: KObject): string {
  const status = (isPlainObject(pod.status) ? pod.status : {}) as Obj;
  let reason = typeof status.reason === "string" ? status.reason : String(status.phase ?? "");
  const containers = Array.isArray(status.containerStatuses) ? status.containerStatuses : [];
  for (const c of containers as Obj[]) {
    const state = (c.state ?? {}) as Obj;
    const waiting = state.waiting as Obj | undefined;
    if (typeof waiting?.reason === "string" && waiting.reason !== "") reason = waiting.reason;
  }
  return pod.metadata.deletionTimestamp ? "Terminating" : reason;
}

function readiness(pod: KObject): string {
  const spec = (pod.spec ?? {}) as Obj;
  const status = (pod.status ?? {}) as Obj;
  const total = Array.isArray(spec.containers) ? spec.containers.length : 0;
  const statuses = Array.isArray(status.containerStatuses)
    ? (status.containerStatuses as Obj[])
    : [];
  return `${statuses.filter((c) => c.ready === true).length}/${total}`;
}

function restarts(pod: KObject): string {
  const status = (pod.status ?? {}) as Obj;
  const statuses = Array.isArray(status.containerStatuses)
    ? (status.containerStatuses as Obj[])
    : [];
  return String(
    statuses.reduce((n, c) => n + (typeof c.restartCount === "number" ? c.restartCount : 0), 0),
  );
}

export const podResource: ResourceDef = {
  group: "",
  version: "v1",
  kind: "Pod",
  listKind: "PodList",
  plural: "pods",
  singular: "pod",
  namespaced: true,
  shortNames: ["po"],
  categories: ["all"],
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  readOnly: true,
  table: {
    columns: [
      NAME_COLUMN,
      column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
      column("Status", "string", "The aggregate status of the containers in this pod."),
      column(
        "Restarts",
        "string",
        "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
      ),
      ageColumn(),
      column("IP", "string", "podIP address allocated to the pod.", 1),
      column("Node", "string", "NodeName indicates in which node this pod is scheduled.", 1),
      column(
        "Nominated Node",
        "string",
        "nominatedNodeName is set only when this pod preempts other pods on the node.",
        1,
      ),
      column(
        "Readiness Gates",
        "string",
        "If specified, all readiness gates will be evaluated for pod readiness.",
        1,
      ),
    ],
    cells(pod, now) {
      const spec = (pod.spec ?? {}) as Obj;
      const status = (pod.status ?? {}) as Obj;
      return [
        pod.metadata.name,
        readiness(pod),
        podStatusReason(pod),
        restarts(pod),
        age(pod.metadata.creationTimestamp, now),
        typeof status.podIP === "string" ? status.podIP : "<none>",
        typeof spec.nodeName === "string" ? spec.nodeName : "<none>",
        "<none>",
        "<none>",
      ];
    },
  },
};
