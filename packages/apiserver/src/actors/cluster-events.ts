/**
 * Events the simulated cluster's own components record, worded as theirs are on a cluster — the
 * Deployment controller's ScalingReplicaSet, the ReplicaSet controller's SuccessfulCreate and
 * SuccessfulDelete, the scheduler's Scheduled, the kubelet's Pulled, Created and Started — so
 * `kubectl describe deploy|rs|pod` and `kubectl get events` read as they would there, beside the
 * Foo controller's own Synced.
 */
import { rfc3339, type KObject } from "../object.ts";
import type { Registry } from "../registry.ts";
import { eventResource } from "../resources/event.ts";
import { NODE_NAME } from "../resources/node.ts";

export type ClusterComponent =
  "deployment-controller" | "replicaset-controller" | "default-scheduler" | "kubelet";

export class ClusterEvents {
  readonly #registry: Registry;
  #made = 0;

  constructor(registry: Registry) {
    this.#registry = registry;
  }

  /** Records a Normal event about `about` (a container's, when `container` names one). */
  record(
    about: KObject,
    component: ClusterComponent,
    reason: string,
    message: string,
    container?: string,
  ): void {
    const now = Date.now();
    const time = rfc3339(now);
    const { name = "", namespace = "default", uid, resourceVersion } = about.metadata;
    this.#registry.create(eventResource, namespace, {
      apiVersion: "v1",
      kind: "Event",
      // As client-go names them: the object's name and a hex time, here made unique by a count.
      metadata: { name: `${name}.${(now * 1000 + (this.#made++ % 1000)).toString(16)}` },
      involvedObject: {
        apiVersion: about.apiVersion,
        kind: about.kind,
        name,
        namespace,
        uid,
        resourceVersion,
        ...(container && { fieldPath: `spec.containers{${container}}` }),
      },
      reason,
      message,
      type: "Normal",
      count: 1,
      firstTimestamp: time,
      lastTimestamp: time,
      source: { component, ...(component === "kubelet" && { host: NODE_NAME }) },
      reportingComponent: component,
      reportingInstance: component === "kubelet" ? NODE_NAME : "",
    });
  }
}
