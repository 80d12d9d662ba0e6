/**
 * apps/v1 ReplicaSets, read-only: the ReplicaSets of the simulated Deployments
 * (actors/replica-set-simulator.ts makes them and their pods as the simulated Deployment
 * controller's rollout plan says), so `kubectl get rs`, `get all` and `describe deploy` show what
 * a cluster would.
 * Columns as kubectl's ReplicaSet printer: DESIRED, CURRENT, READY, AGE; -o wide adds
 * CONTAINERS, IMAGES and SELECTOR.
 */
import { formatLabelSelector } from "../selectors.ts";
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { POD_TEMPLATE_COLUMNS, podTemplateCells } from "./pod-template-columns.ts";
import { specChanged, type ResourceDef } from "./resource.ts";

type Obj = Record<string, unknown>;

const count = (v: unknown) => (typeof v === "number" ? v : 0);

export const replicaSetResource: ResourceDef = {
  group: "apps",
  version: "v1",
  kind: "ReplicaSet",
  listKind: "ReplicaSetList",
  plural: "replicasets",
  singular: "replicaset",
  namespaced: true,
  shortNames: ["rs"],
  categories: ["all"],
  status: "none",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  readOnly: true,
  generationChanged: specChanged,
  table: {
    columns: [
      NAME_COLUMN,
      column(
        "Desired",
        "integer",
        "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.",
      ),
      column(
        "Current",
        "integer",
        "Replicas is the most recently observed number of non-terminating pods.",
      ),
      column(
        "Ready",
        "integer",
        "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
      ),
      ageColumn(),
      ...POD_TEMPLATE_COLUMNS,
      column(
        "Selector",
        "string",
        "Selector is a label query over pods that should match the replica count.",
        1,
      ),
    ],
    cells(rs, now) {
      const spec = (rs.spec ?? {}) as Obj;
      const status = (rs.status ?? {}) as Obj;
      return [
        rs.metadata.name,
        count(spec.replicas),
        count(status.replicas),
        count(status.readyReplicas),
        age(rs.metadata.creationTimestamp, now),
        ...podTemplateCells(rs),
        formatLabelSelector(spec.selector),
      ];
    },
  },
};
