/**
 * core/v1 Services, read-only: the `kubernetes` Service in `default`, as every cluster has (the
 * API server's in-cluster address), so `kubectl get services` and `kubectl cluster-info` work.
 * Columns as kubectl's service printer.
 */
import type { KObject } from "../object.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import type { ResourceDef } from "./resource.ts";

type Obj = Record<string, unknown>;

/** The `kubernetes` Service of a fresh cluster (kube-apiserver's default service CIDR). */
export const KUBERNETES_SERVICE: KObject = {
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: "kubernetes",
    namespace: "default",
    labels: { component: "apiserver", provider: "kubernetes" },
  },
  spec: {
    clusterIP: "10.96.0.1",
    clusterIPs: ["10.96.0.1"],
    internalTrafficPolicy: "Cluster",
    ipFamilies: ["IPv4"],
    ipFamilyPolicy: "SingleStack",
    ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: 6443 }],
    sessionAffinity: "None",
    type: "ClusterIP",
  },
  status: { loadBalancer: {} },
};

function ports(spec: Obj): string {
  const list = Array.isArray(spec.ports) ? (spec.ports as Obj[]) : [];
  if (list.length === 0) return "<none>";
  return list
    .map(
      (p) =>
        `${String(p.port)}${p.nodePort ? `:${String(p.nodePort)}` : ""}/${String(p.protocol ?? "TCP")}`,
    )
    .join(",");
}

function selector(spec: Obj): string {
  const s = spec.selector as Record<string, string> | undefined;
  const parts = Object.keys(s ?? {})
    .sort()
    .map((k) => `${k}=${s![k]}`);
  return parts.length > 0 ? parts.join(",") : "<none>";
}

export const serviceResource: ResourceDef = {
  group: "",
  version: "v1",
  kind: "Service",
  listKind: "ServiceList",
  plural: "services",
  singular: "service",
  namespaced: true,
  shortNames: ["svc"],
  categories: ["all"],
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  readOnly: true,
  table: {
    columns: [
      NAME_COLUMN,
      column("Type", "string", "type determines how the Service is exposed."),
      column("Cluster-IP", "string", "clusterIP is the IP address of the service."),
      column(
        "External-IP",
        "string",
        "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
      ),
      column("Port(s)", "string", "The list of ports that are exposed by this service."),
      ageColumn(),
      column(
        "Selector",
        "string",
        "Route service traffic to pods with label keys and values matching this selector.",
        1,
      ),
    ],
    cells(svc, now) {
      const spec = (svc.spec ?? {}) as Obj;
      const external = Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0;
      return [
        svc.metadata.name,
        String(spec.type ?? "ClusterIP"),
        String(spec.clusterIP ?? "<none>"),
        external ? (spec.externalIPs as string[]).join(",") : "<none>",
        ports(spec),
        age(svc.metadata.creationTimestamp, now),
        selector(spec),
      ];
    },
  },
};
