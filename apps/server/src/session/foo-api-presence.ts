/**
 * Whether the cluster still serves the Foo API, told once per change. The CRD can be deleted
 * under a running controller (`kubectl delete crd foos.samplecontroller.k8s.io`): the Foo
 * informer's list and watch then answer 404 and it retries with backoff, which alone shows only
 * as trace notes. A 404 from it means the API is gone; its first list or watch that succeeds
 * after failures (ResilientInformer's recovery) means it is back.
 *
 * Invariants: listeners hear changes only (served → gone → served …); while gone, `since` stays
 * the first 404's time; other informers' errors, and the Foo informer's other errors (the
 * cluster not answering: cluster-reachability.ts), change nothing.
 */
import type { FooApiPresence } from "@loopscope/protocol";
import { FOO_KIND, type InformerError, type InformerRecovery } from "@loopscope/controller";

export type FooApiListener = (now: FooApiPresence, before: FooApiPresence) => void;

/** A failed request's HTTP status: client-node's ApiException has `code`, its Watch `statusCode`. */
export function httpStatus(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | undefined;
  if (typeof e?.code === "number") return e.code;
  return typeof e?.statusCode === "number" ? e.statusCode : undefined;
}

interface Status {
  kind?: unknown;
  message?: unknown;
  details?: { name?: unknown };
}

/** A failed request's body as a Kubernetes Status, when it is one (client-node keeps it as text). */
export function statusOf(err: unknown): Status | undefined {
  const body = (err as { body?: unknown } | undefined)?.body;
  try {
    const status = (typeof body === "string" ? JSON.parse(body) : body) as Status | null;
    return status?.kind === "Status" ? status : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a Foo request (a scenario's create) failed because the Foo API is going or gone — its
 * CRD deleted — which the Foo informer may not have told yet, or never will while the CRD
 * terminates (its list and watch still answer): a create then is a 405 "create not allowed while
 * custom resource definition is terminating" (apiextensions), and any request once the CRD is
 * gone a 404 that names no object (a cluster's plain-text "404 page not found"; a missing Foo or
 * namespace is a Status that names it).
 */
export function saysFooApiGone(err: unknown): boolean {
  const status = statusOf(err);
  switch (httpStatus(err)) {
    case 405:
      return String(status?.message).includes("custom resource definition is terminating");
    case 404:
      return status?.details?.name === undefined;
    default:
      return false;
  }
}

/** Whether an informer's failure says the Foo API is gone: the Foo informer's list or watch got 404. */
export function meansFooApiGone(e: InformerError): boolean {
  // e.kind: "list Foo", "watch Foo".
  return e.kind.split(" ")[1] === FOO_KIND && httpStatus(e.error) === 404;
}

export class FooApiMonitor {
  private current: FooApiPresence = { served: true };
  private readonly listeners = new Set<FooApiListener>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  state(): FooApiPresence {
    return this.current;
  }

  onChange(listener: FooApiListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  informerFailed(e: InformerError): void {
    if (!meansFooApiGone(e)) return;
    this.set({ served: false, since: this.now().toISOString() });
  }

  informerRecovered(e: InformerRecovery): void {
    if (e.kind === FOO_KIND) this.set({ served: true });
  }

  private set(next: FooApiPresence): void {
    const before = this.current;
    if (before.served === next.served) return;
    this.current = next;
    for (const l of this.listeners) l(next, before);
  }
}
