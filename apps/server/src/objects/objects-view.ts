/**
 * The present state of Foos and Deployments, read from the controller's own informer caches
 * (no extra watch on the API server), summarised for the wire (ObjectSummary: no specs, no
 * managed fields, nothing secret).
 *
 * Invariant: `onChanged` listeners hear about every add/update/delete the caches see; the
 * snapshot they then read is the caches' state at that moment, stamped with the hub's lastSeq.
 */
import type { ObjectSummary, ObjectsSnapshot } from "@loopscope/protocol";

interface Meta {
  namespace?: string;
  name?: string;
  resourceVersion?: string;
  generation?: number;
  deletionTimestamp?: string | Date;
  ownerReferences?: { kind?: string; name?: string; controller?: boolean }[];
}

export interface CachedObject {
  metadata?: Meta;
  spec?: { replicas?: number | null };
  status?: { availableReplicas?: number | null };
}

/** The part of an informer this view needs (ResilientInformer fits). */
export interface ObjectCache<T extends CachedObject> {
  list(): T[];
  addEventHandler(h: { add?(o: T): void; update?(a: T, b: T): void; delete?(o: T): void }): void;
}

export class ObjectsView {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly foos: ObjectCache<CachedObject>,
    private readonly deployments: ObjectCache<CachedObject>,
    private readonly lastSeq: () => number,
  ) {
    const changed = () => {
      for (const l of this.listeners) l();
    };
    for (const cache of [foos, deployments]) {
      cache.addEventHandler({ add: changed, update: changed, delete: changed });
    }
  }

  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): ObjectsSnapshot {
    const objects = [
      ...this.foos.list().map((o) => summarize("Foo", o)),
      ...this.deployments.list().map((o) => summarize("Deployment", o)),
    ].sort(
      (a, b) =>
        a.kind.localeCompare(b.kind) ||
        a.namespace.localeCompare(b.namespace) ||
        a.name.localeCompare(b.name),
    );
    return { atSeq: this.lastSeq(), objects };
  }
}

export const NO_OBJECTS = { atSeq: 0, objects: [] } satisfies ObjectsSnapshot;

function summarize(kind: ObjectSummary["kind"], o: CachedObject): ObjectSummary {
  const m = o.metadata ?? {};
  const s: ObjectSummary = {
    kind,
    namespace: m.namespace ?? "",
    name: m.name ?? "",
    resourceVersion: m.resourceVersion ?? "",
  };
  if (m.generation !== undefined) s.generation = m.generation;
  if (typeof o.spec?.replicas === "number") s.replicas = o.spec.replicas;
  if (typeof o.status?.availableReplicas === "number") {
    s.availableReplicas = o.status.availableReplicas;
  }
  const owner = m.ownerReferences?.find((r) => r.controller && r.kind === "Foo");
  if (kind === "Deployment" && owner?.name) s.owner = `${s.namespace}/${owner.name}`;
  if (m.deletionTimestamp) {
    s.deletionTimestamp =
      m.deletionTimestamp instanceof Date ? m.deletionTimestamp.toISOString() : m.deletionTimestamp;
  }
  return s;
}
