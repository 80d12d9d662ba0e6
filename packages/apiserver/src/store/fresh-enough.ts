/**
 * What kube-apiserver's watch cache does with a read "not older than" a resourceVersion it has
 * not reached yet (waitUntilFreshAndBlock): it waits for the store to get there — a client that
 * just wrote through another server may be ahead of this one — and gives up after a while with a
 * 504 "Too large resource version" (errors.ts). The real wait is 3 s; the server's
 * `tooLargeResourceVersionWaitMs` option shortens it for tests.
 */
import { tooLargeResourceVersion } from "../errors.ts";
import type { ObjectStore } from "./object-store.ts";

/** Resolves once `store` has reached `rv`; rejects with the 504 after `waitMs` otherwise. */
export function waitUntilFresh(store: ObjectStore, rv: number, waitMs: number): Promise<void> {
  if (store.currentRv >= rv) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(tooLargeResourceVersion(rv, store.currentRv)), waitMs);
    const unsubscribe = store.subscribe(() => {
      if (store.currentRv >= rv) done();
    });
  });
}

/**
 * The resourceVersion a list or get must wait for, if any: a number above 0 with
 * `resourceVersionMatch` unset or NotOlderThan (the watch cache's reads). "0" means any, an
 * Exact match goes to etcd, which this server does not model; anything unparsable is left to
 * the caller as before.
 */
export function minimumRv(query: URLSearchParams): number | undefined {
  const match = query.get("resourceVersionMatch") ?? "";
  if (match !== "" && match !== "NotOlderThan") return undefined;
  const rv = Number(query.get("resourceVersion") ?? "");
  return Number.isSafeInteger(rv) && rv > 0 ? rv : undefined;
}
