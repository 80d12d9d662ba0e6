/**
 * core/v1 Namespaces (cluster-scoped). "default" and the kube-* namespaces exist from the start;
 * `kubectl create namespace` adds more. Deleting one marks it Terminating; the garbage collector
 * then removes its contents and the namespace itself.
 */
import { NAME_COLUMN, ageColumn, column } from "../table/table.ts";
import { age } from "../table/human-duration.ts";
import { ANY, OBJECT_META } from "./known-fields.ts";
import type { ResourceDef } from "./resource.ts";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A namespace's name is a DNS-1123 label (no dots: it is a part of Services' DNS names). */
function dnsLabelProblem(name: string): string | undefined {
  if (name.length > 63) return "must be no more than 63 characters";
  if (!DNS1123_LABEL.test(name))
    return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  return undefined;
}

export const INITIAL_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

export const namespaceResource: ResourceDef = {
  group: "",
  version: "v1",
  kind: "Namespace",
  listKind: "NamespaceList",
  plural: "namespaces",
  singular: "namespace",
  namespaced: false,
  shortNames: ["ns"],
  status: "builtin",
  scale: false,
  builtIn: true,
  unconditionalUpdate: true,
  fields: {
    apiVersion: ANY,
    kind: ANY,
    metadata: OBJECT_META,
    spec: { finalizers: ANY },
    status: { phase: ANY, conditions: ANY },
  },
  prepareForCreate(ns) {
    ns.status = { phase: "Active" };
    ns.spec = { finalizers: ["kubernetes"] };
  },
  // The API server keeps this label equal to the name, on every write: selectors rely on it.
  applyDefaults(ns) {
    ns.metadata.labels = {
      ...ns.metadata.labels,
      "kubernetes.io/metadata.name": ns.metadata.name ?? "",
    };
  },
  nameProblem: dnsLabelProblem,
  table: {
    columns: [NAME_COLUMN, column("Status", "string", "The status of the namespace"), ageColumn()],
    cells: (ns, now) => [
      ns.metadata.name,
      ((ns.status ?? {}) as { phase?: string }).phase ?? "",
      age(ns.metadata.creationTimestamp, now),
    ],
  },
};
