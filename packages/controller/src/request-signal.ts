/**
 * An AbortSignal for one call of client-node's generated API clients: they take one only through
 * a request middleware, passed in the call's options. Aborting it (a deadline, a stop) makes the
 * call reject at once instead of waiting on a connection that never answers.
 */
import {
  Observable,
  type ConfigurationOptions,
  type RequestContext,
  type ResponseContext,
} from "@kubernetes/client-node";

export function withSignal(signal: AbortSignal): ConfigurationOptions {
  return {
    middleware: [
      {
        pre: (ctx: RequestContext) => {
          ctx.setSignal(signal);
          return new Observable(Promise.resolve(ctx));
        },
        post: (res: ResponseContext) => new Observable(Promise.resolve(res)),
      },
    ],
    middlewareMergeStrategy: "append",
  };
}
