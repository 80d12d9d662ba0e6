/**
 * The `-o wide` columns kubectl prints for each kind that runs a pod template (Deployments,
 * ReplicaSets): its containers' names and images.
 */
import type { KObject } from "../object.ts";
import { column } from "../table/table.ts";

type Obj = Record<string, unknown>;

export const POD_TEMPLATE_COLUMNS = [
  column("Containers", "string", "Names of each container in the template.", 1),
  column("Images", "string", "Images referenced by each container in the template.", 1),
];

/** The cells of POD_TEMPLATE_COLUMNS for an object with `spec.template`. */
export function podTemplateCells(obj: KObject): [string, string] {
  const template = ((obj.spec as Obj | undefined)?.template ?? {}) as Obj;
  const podSpec = (template.spec ?? {}) as Obj;
  const containers = Array.isArray(podSpec.containers) ? (podSpec.containers as Obj[]) : [];
  return [containers.map((c) => c.name).join(","), containers.map((c) => c.image).join(",")];
}
