/** Chooses the patch algorithm from the request's Content-Type, as the real server does. */
import { unsupportedMediaType } from "../errors.ts";
import type { ResourceDef } from "../resources/resource.ts";
import { applyJsonPatch } from "./json-patch.ts";
import { applyMergePatch } from "./merge-patch.ts";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";

export type PatchType = "json" | "merge" | "strategic";

const MEDIA = new Map<string, PatchType>([
  ["application/json-patch+json", "json"],
  ["application/merge-patch+json", "merge"],
  ["application/strategic-merge-patch+json", "strategic"],
]);

/** Throws 415 for an unknown type, and for strategic merge on a custom resource. */
export function patchTypeOf(contentType: string | undefined, def: ResourceDef): PatchType {
  const media = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const type = MEDIA.get(media);
  if (!type || (type === "strategic" && !def.builtIn)) {
    const accepted = ["application/json-patch+json", "application/merge-patch+json"];
    if (def.builtIn) accepted.push("application/strategic-merge-patch+json");
    accepted.push("application/apply-patch+yaml");
    throw unsupportedMediaType(accepted);
  }
  return type;
}

export function applyPatch(type: PatchType, target: unknown, patch: unknown): unknown {
  switch (type) {
    case "json":
      return applyJsonPatch(target, patch);
    case "merge":
      return applyMergePatch(target, patch);
    case "strategic":
      return applyStrategicMergePatch(target, patch);
  }
}
