/**
 * Changed field paths of a write: which of the fields the controller *sends* differ from what its
 * lister had. Only paths present in the sent object are compared, because fields the server
 * fills in (defaults, uid, managedFields) are not the controller's doing.
 *
 * Invariants: paths are dot-separated with array indices as `[i]` ("spec.template.spec
 * .containers[0].image"); identical inputs give `[]`; result is sorted.
 */
const SERVER_OWNED = new Set([
  "metadata.resourceVersion",
  "metadata.uid",
  "metadata.creationTimestamp",
  "metadata.generation",
  "metadata.managedFields",
  "metadata.selfLink",
]);

export function changedFields(sent: unknown, had: unknown, under = ""): string[] {
  const out: string[] = [];
  walk(sent, had, under, out);
  return out.sort();
}

function walk(sent: unknown, had: unknown, path: string, out: string[]): void {
  if (SERVER_OWNED.has(path)) return;
  if (sent === had) return;
  if (sent instanceof Date || had instanceof Date) {
    if (time(sent) !== time(had)) out.push(path);
    return;
  }
  if (Array.isArray(sent)) {
    const before = had;
    if (!Array.isArray(before) || before.length !== sent.length) {
      out.push(path);
      return;
    }
    sent.forEach((v, i) => walk(v, before[i], `${path}[${i}]`, out));
    return;
  }
  if (sent !== null && typeof sent === "object") {
    if (had === undefined || had === null) had = {}; // new subtree: list its leaves
    if (typeof had !== "object" || Array.isArray(had)) {
      out.push(path);
      return;
    }
    for (const [k, v] of Object.entries(sent as Record<string, unknown>)) {
      if (v === undefined) continue;
      walk(v, (had as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
    }
    return;
  }
  // Numbers vs numeric strings from a typed vs raw decode are the same value.
  if (sent !== null && had !== null && String(sent) === String(had) && typeof sent !== typeof had)
    return;
  out.push(path);
}

/** Typed client decodes give Dates, raw watch objects give strings: compare instants. */
function time(v: unknown): number {
  return v instanceof Date ? v.getTime() : typeof v === "string" ? Date.parse(v) : NaN;
}
