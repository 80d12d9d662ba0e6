/**
 * Serialized JSON of stored objects, computed once per snapshot. Stored snapshots are
 * deep-frozen and replaced (never mutated) on write, so identity is a valid cache key; a watch
 * event fanned out to many watchers is serialized once instead of once per watcher.
 */
import type { KObject } from "../object.ts";

const cache = new WeakMap<KObject, string>();

export function objectJson(obj: KObject): string {
  let text = cache.get(obj);
  if (text === undefined) {
    text = JSON.stringify(obj);
    if (Object.isFrozen(obj)) cache.set(obj, text);
  }
  return text;
}
