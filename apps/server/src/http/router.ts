/**
 * The dashboard server's request dispatcher. Routes are plain data (see `Route`), so a module
 * (metrics, …) mounts its own by adding to the list passed in — nothing here knows them.
 *
 * Order of checks for every request: Host (403 on a name that is not ours), then the route's
 * access level — "public" needs nothing; "read" needs either token and a same-origin (or absent)
 * Origin; "write" needs the owner token, that Origin and a JSON body — then the handler. A
 * foreign Origin is refused for reads too: the token alone keeps another site out today, and a
 * token that leaked (a shared link, a log) should still not let its pages read the run. A handler's
 * HttpError becomes its status; anything else a 500 with the message only, never a stack.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { TOKEN_HEADER } from "@loopscope/protocol";
import {
  accessOf,
  hostAllowed,
  originAllowed,
  type Access,
  type AccessPolicy,
} from "./security.ts";
import { HttpError, sendError } from "./respond.ts";
import { requestUrl } from "./request-url.ts";

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  access: Access;
  /** Path parameter: what follows a prefix route's path. */
  rest: string;
}

export interface Route {
  method: "GET" | "POST";
  /** Exact pathname, or with `prefix` the start of one ("/api/runs/"). */
  path: string;
  prefix?: boolean;
  access: "public" | "read" | "write";
  handle(ctx: RequestContext): void | Promise<void>;
}

export function createRouter(
  policy: AccessPolicy,
  routes: readonly Route[],
  fallback: (ctx: RequestContext) => void | Promise<void>,
): RequestListener {
  return (req, res) => {
    void dispatch(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) sendError(res, err.status, err.message);
      else sendError(res, 500, err instanceof Error ? err.message : String(err));
    });
  };

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    if (!hostAllowed(policy, req.headers.host)) return sendError(res, 403, "unknown Host");
    const url = requestUrl(req);
    if (!url) return sendError(res, 400, "the request target is not a URL");
    const method = req.method === "HEAD" ? "GET" : req.method;
    const route = routes.find(
      (r) =>
        r.method === method &&
        (r.prefix ? url.pathname.startsWith(r.path) : url.pathname === r.path),
    );
    const token =
      header(req, TOKEN_HEADER) ?? (method === "GET" ? url.searchParams.get("token") : null);
    const ctx: RequestContext = {
      req,
      res,
      url,
      access: accessOf(policy, token),
      rest: route?.prefix ? url.pathname.slice(route.path.length) : "",
    };
    if (!route) {
      const known = routes.some((r) =>
        r.prefix ? url.pathname.startsWith(r.path) : url.pathname === r.path,
      );
      if (known) return sendError(res, 405, "method not allowed");
      if (url.pathname.startsWith("/api/") || method !== "GET") {
        return sendError(res, 404, "not found");
      }
      return fallback(ctx);
    }
    if (
      route.access !== "public" &&
      !originAllowed(policy, header(req, "origin"), req.headers.host)
    )
      return sendError(res, 403, "foreign Origin");
    if (route.access === "read" && ctx.access === "none") {
      return sendError(res, 403, "missing or wrong token");
    }
    if (route.access === "write") {
      if (ctx.access !== "owner") {
        return sendError(
          res,
          403,
          ctx.access === "reader" ? "read-only session" : "missing or wrong token",
        );
      }
      if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) {
        return sendError(res, 415, "send JSON (content-type: application/json)");
      }
    }
    await route.handle(ctx);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
