/**
 * coordination.k8s.io/v1 Leases: what client-go's leader election (a controller run with
 * `--leader-elect`) and the kubelet's heartbeat write. Stored as given, no status. The node's
 * lease in `kube-node-lease` exists from the start, so `kubectl describe node` shows its holder.
 */
import type { KObject } from "../object.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { NODE_NAME } from "./node.ts";
import type { ResourceDef } from "./resource.ts";

/** Where kubelets keep their nodes' leases. */
export const NODE_LEASE_NAMESPACE = "kube-node-lease";

/**
 * The simulated node's heartbeat lease, as a kubelet keeps it; actors/node-heartbeat.ts renews
 * it every 10 s.
 */
export function nodeLease(now: string): KObject {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: NODE_NAME, namespace: NODE_LEASE_NAMESPACE },
    spec: {
      holderIdentity: NODE_NAME,
      leaseDurationSeconds: 40,
      renewTime: now,
    },
  };
}

export const leaseResource: ResourceDef = {
  group: "coordination.k8s.io",
  version: "v1",
  kind: "Lease",
  listKind: "LeaseList",
  plural: "leases",
  singular: "lease",
  namespaced: true,
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      column(
        "Holder",
        "string",
        "holderIdentity contains the identity of the holder of a current lease.",
      ),
      ageColumn(),
    ],
    cells: (lease, now) => [
      lease.metadata.name,
      String((lease.spec as { holderIdentity?: string } | undefined)?.holderIdentity ?? ""),
      age(lease.metadata.creationTimestamp, now),
    ],
  },
};
