/**
 * JSON Merge Patch (RFC 7386): objects merge recursively, null deletes, everything else replaces.
 * Keys are own data properties on both sides, whatever their names (object.ts getOwn/setOwn).
 */
import { clone, getOwn, isPlainObject, setOwn } from "../object.ts";

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setOwn(result, key, applyMergePatch(getOwn(result, key), value));
  }
  return result;
}
