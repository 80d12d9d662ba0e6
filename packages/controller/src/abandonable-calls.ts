/**
 * The controller's API calls, each of which can be given up on from outside.
 *
 * A request sent just before the network went silent may never be answered: its connection's near
 * end lives on (a proxy, a tunnel, a load balancer, a paused relay), so no error comes either, and
 * the worker that sent it waits for good — its key "processing" for ever, and a stop that lets
 * in-flight passes finish never finishing. client-go is saved from this by HTTP/2's health checks
 * closing a dead connection; client-node's HTTP/1.1 requests have none. So whoever knows better
 * says when: the cluster answers again after an outage (what was sent before it may be lost), or
 * the controller is stopping and a pass outlived its grace.
 *
 * Invariants: `abandon` ends exactly the calls in flight when it is called, each failing with its
 * reason (not a bare "aborted"), and calls started after it are untouched; after `close` every call
 * in flight or to come fails so at once.
 */
import type { ConfigurationOptions, HttpInfo } from "@kubernetes/client-node";
import { callApi, type ApiResult } from "./api-call.ts";
import { withSignal } from "./request-signal.ts";

export class AbandonableCalls {
  private current = new AbortController();

  /** Runs one call, passing it the options that let `abandon` end it. */
  async call<T>(
    fn: (options: ConfigurationOptions) => Promise<HttpInfo<T>>,
  ): Promise<ApiResult<T>> {
    const signal = this.current.signal;
    const res = await callApi(() => fn(withSignal(signal)));
    if (res.ok || !signal.aborted) return res;
    return { ok: false, code: undefined, reason: "Abandoned", error: signal.reason as Error };
  }

  /** The options for a call that reports its own failures (an Event's post). */
  options(): ConfigurationOptions {
    return withSignal(this.current.signal);
  }

  /** Ends every call in flight, each failing with `why`. */
  abandon(why: string): void {
    const ending = this.current;
    this.current = new AbortController();
    ending.abort(new Error(why));
  }

  /** Ends every call in flight and every later one, each failing with `why`. */
  close(why: string): void {
    if (!this.current.signal.aborted) this.current.abort(new Error(why));
  }
}
