/**
 * The controller's API calls, each of which can be given up on from outside.
 *
 * A request sent just before the network went silent may never be answered: its connection's
 * near end lives on (a proxy, a tunnel, a load balancer, a paused relay), so no error comes
 * either, and whoever waits on it waits for good — a worker (its key "processing" for ever, and a
 * stop that lets in-flight passes finish never finishing), or an informer's list (the informer
 * deaf). client-go is saved from this by HTTP/2's health checks closing a dead connection;
 * client-node's HTTP/1.1 requests have none. So whoever knows better says when: the cluster
 * answers again after an outage (what was sent before it may be lost), or the controller is
 * stopping and a call outlived its grace.
 *
 * Invariants: `abandon` ends exactly the calls in flight when it is called, and calls started
 * after it are untouched; after `close` every call in flight or to come ends at once. An ended
 * call rejects with an Error whose message says why and whose `code` is "Abandoned" (what the
 * write stage records as its reason, see api-call.ts), not with a bare "aborted".
 */
import type { ConfigurationOptions } from "@kubernetes/client-node";
import { withSignal } from "./request-signal.ts";

export class AbandonableCalls {
  private current = new AbortController();

  /** Runs one call, passing it the options that let `abandon` end it. */
  async run<T>(fn: (options: ConfigurationOptions) => Promise<T>): Promise<T> {
    const signal = this.current.signal;
    try {
      return await fn(withSignal(signal));
    } catch (err) {
      throw signal.aborted ? signal.reason : err;
    }
  }

  /** Ends every call in flight, each failing with `why`. */
  abandon(why: string): void {
    const ending = this.current;
    this.current = new AbortController();
    ending.abort(abandoned(why));
  }

  /** Ends every call in flight and every later one, each failing with `why`. */
  close(why: string): void {
    if (!this.current.signal.aborted) this.current.abort(abandoned(why));
  }
}

/** Whether `err` is a call's end by `abandon` or `close`. */
export function isAbandoned(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === "Abandoned";
}

function abandoned(why: string): Error {
  return Object.assign(new Error(why), { code: "Abandoned" });
}
