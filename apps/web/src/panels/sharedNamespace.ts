/**
 * The namespace every key shares ("default/"), or undefined when they differ or have none. The
 * objects table then names each Foo by its name alone and says the namespace once, in its header:
 * in a narrow column "d…example-foo" told no one anything.
 */
export function sharedNamespace(keys: readonly string[]): string | undefined {
  if (keys.length === 0) return undefined;
  const first = keys[0]!;
  const slash = first.indexOf("/");
  if (slash < 0) return undefined;
  const ns = first.slice(0, slash + 1);
  for (const k of keys) if (!k.startsWith(ns) || k.indexOf("/", ns.length) >= 0) return undefined;
  return ns;
}
