/** Chooses the patch algorithm from the request's Content-Type, as the real server does. */
import { ApiError, unsupportedMediaType } from "../errors.ts";
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

/** Server-side apply's patch types (YAML, and CBOR since 1.32): not served here. */
const APPLY_MEDIA = new Set(["application/apply-patch+yaml", "application/apply-patch+cbor"]);

/**
 * Throws 415 for an unknown type, for strategic merge on a custom resource, and for server-side
 * apply, which this server does not serve (no managedFields): its message says so and what to
 * run instead, and every 415 lists only the patch types accepted for `def`.
 */
export function patchTypeOf(contentType: string | undefined, def: ResourceDef): PatchType {
  const media = (contentType ?? "").split(";")[0].trim().toLowerCase();
  const type = MEDIA.get(media);
  const accepted = ["application/json-patch+json", "application/merge-patch+json"];
  if (def.builtIn) accepted.push("application/strategic-merge-patch+json");
  if (APPLY_MEDIA.has(media)) {
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      `server-side apply (${media}) is not served by loopscope's embedded API server: use client-side apply (kubectl apply without --server-side); accepted patch media types: ${accepted.join(", ")}`,
    );
  }
  if (!type || (type === "strategic" && !def.builtIn)) throw unsupportedMediaType(accepted);
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
