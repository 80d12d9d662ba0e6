/**
 * core/v1 Nodes, read-only: the simulated cluster's one node, `loopscope-node`, Ready, where every
 * simulated pod runs — so `kubectl get nodes` (often the first command typed at a cluster) and
 * `kubectl describe node` answer as on a one-node cluster. Columns as kubectl's node printer.
 */
import type { KObject } from "../object.ts";
import { SERVER_VERSION } from "../server-version.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import type { ResourceDef } from "./resource.ts";

type Obj = Record<string, unknown>;

export const NODE_NAME = "loopscope-node";
export const NODE_IP = "10.89.0.2";

/** The node as a fresh one-node cluster has it; conditions' times are set when it is seeded. */
export function loopscopeNode(now: string): KObject {
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: NODE_NAME,
      labels: {
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": NODE_NAME,
        "kubernetes.io/os": "linux",
        "node-role.kubernetes.io/control-plane": "",
      },
    },
    spec: { podCIDR: "10.244.0.0/24", podCIDRs: ["10.244.0.0/24"] },
    status: {
      capacity: { cpu: "2", memory: "4026532Ki", pods: "110" },
      allocatable: { cpu: "2", memory: "4026532Ki", pods: "110" },
      conditions: [
        condition(
          "MemoryPressure",
          "False",
          "KubeletHasSufficientMemory",
          "kubelet has sufficient memory available",
        ),
        condition(
          "DiskPressure",
          "False",
          "KubeletHasNoDiskPressure",
          "kubelet has no disk pressure",
        ),
        condition(
          "PIDPressure",
          "False",
          "KubeletHasSufficientPID",
          "kubelet has sufficient PID available",
        ),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
      ],
      addresses: [
        { type: "InternalIP", address: NODE_IP },
        { type: "Hostname", address: NODE_NAME },
      ],
      nodeInfo: {
        architecture: "amd64",
        operatingSystem: "linux",
        osImage: "loopscope simulated node",
        kernelVersion: "simulated",
        containerRuntimeVersion: "simulated://1.0",
        kubeletVersion: SERVER_VERSION.gitVersion,
        kubeProxyVersion: SERVER_VERSION.gitVersion,
        machineID: "",
        systemUUID: "",
        bootID: "",
      },
    },
  };
}

function ready(node: KObject): string {
  const conditions = ((node.status as Obj | undefined)?.conditions ?? []) as Obj[];
  const status = conditions.find((c) => c.type === "Ready")?.status;
  return status === "True" ? "Ready" : status === "False" ? "NotReady" : "Unknown";
}

function roles(node: KObject): string {
  const prefix = "node-role.kubernetes.io/";
  const found = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length));
  return found.length > 0 ? found.sort().join(",") : "<none>";
}

function address(node: KObject, type: string): string {
  const list = ((node.status as Obj | undefined)?.addresses ?? []) as Obj[];
  return String(list.find((a) => a.type === type)?.address ?? "<none>");
}

export const nodeResource: ResourceDef = {
  group: "",
  version: "v1",
  kind: "Node",
  listKind: "NodeList",
  plural: "nodes",
  singular: "node",
  namespaced: false,
  shortNames: ["no"],
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  readOnly: true,
  table: {
    columns: [
      NAME_COLUMN,
      column("Status", "string", "The status of the node"),
      column("Roles", "string", "The roles of the node"),
      ageColumn(),
      column("Version", "string", "Kubelet Version reported by the node."),
      column(
        "Internal-IP",
        "string",
        "List of addresses reachable to the node. Queried from cloud provider, if available.",
        1,
      ),
      column(
        "External-IP",
        "string",
        "List of addresses reachable to the node. Queried from cloud provider, if available.",
        1,
      ),
      column(
        "OS-Image",
        "string",
        "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
        1,
      ),
      column(
        "Kernel-Version",
        "string",
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        1,
      ),
      column(
        "Container-Runtime",
        "string",
        "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
        1,
      ),
    ],
    cells(node, now) {
      const info = ((node.status as Obj | undefined)?.nodeInfo ?? {}) as Obj;
      return [
        node.metadata.name,
        ready(node),
        roles(node),
        age(node.metadata.creationTimestamp, now),
        String(info.kubeletVersion ?? ""),
        address(node, "InternalIP"),
        address(node, "ExternalIP"),
        String(info.osImage ?? "<unknown>"),
        String(info.kernelVersion ?? "<unknown>"),
        String(info.containerRuntimeVersion ?? "<unknown>"),
      ];
    },
  },
};
