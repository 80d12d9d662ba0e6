/** Every resource type the server serves, in discovery order. */
import {
  selfSubjectAccessReviewResource,
  selfSubjectRulesReviewResource,
} from "./access-review.ts";
import { crdResource } from "./crd.ts";
import { deploymentResource } from "./deployment.ts";
import { EVENT_FIELD_SELECTORS, eventResource } from "./event.ts";
import { fooResource } from "./foo.ts";
import { leaseResource } from "./lease.ts";
import { namespaceResource } from "./namespace.ts";
import { nodeResource } from "./node.ts";
import { POD_FIELD_SELECTORS, podResource } from "./pod.ts";
import { replicaSetResource } from "./replica-set.ts";
import { selfSubjectReviewResource } from "./self-subject-review.ts";
import { serviceResource } from "./service.ts";
import type { ResourceDef } from "./resource.ts";
import type { SelectableField } from "../selectors.ts";

export const RESOURCES: readonly ResourceDef[] = [
  namespaceResource,
  nodeResource,
  eventResource,
  podResource,
  serviceResource,
  deploymentResource,
  replicaSetResource,
  fooResource,
  crdResource,
  leaseResource,
  // authentication.k8s.io before authorization.k8s.io, as a real server lists its groups.
  selfSubjectReviewResource,
  selfSubjectAccessReviewResource,
  selfSubjectRulesReviewResource,
];

export function findResource(
  group: string,
  version: string,
  plural: string,
): ResourceDef | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.plural === plural);
}

export function resourceByKind(kind: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.kind === kind);
}

/**
 * Group versions of `resources` (default: every type), in discovery order: core first, then named
 * groups. A group none of whose types is served is absent.
 */
export function groupVersions(
  resources: readonly ResourceDef[] = RESOURCES,
): { group: string; version: string; resources: ResourceDef[] }[] {
  const out: { group: string; version: string; resources: ResourceDef[] }[] = [];
  for (const r of resources) {
    let gv = out.find((g) => g.group === r.group && g.version === r.version);
    if (!gv) out.push((gv = { group: r.group, version: r.version, resources: [] }));
    gv.resources.push(r);
  }
  return out;
}

export function allowedFieldSelectors(def: ResourceDef): SelectableField[] {
  const base = ["metadata.name", "metadata.namespace"];
  if (def === eventResource) return [...base, ...EVENT_FIELD_SELECTORS];
  if (def === namespaceResource) return [...base, "status.phase"];
  if (def === podResource) return [...base, ...POD_FIELD_SELECTORS];
  return base;
}
