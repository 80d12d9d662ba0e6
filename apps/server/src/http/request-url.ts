/**
 * A request's target as a URL, or undefined when it is not one. Node passes an absolute-form
 * target through as sent (`GET http://[::1 HTTP/1.1`), and `new URL` throws on it: the router
 * answered 500, and a WebSocket upgrade threw out of the server's `upgrade` handler — an uncaught
 * exception that ended the process, before any Host or token check.
 */
import type { IncomingMessage } from "node:http";

export function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    return new URL(req.url ?? "/", "http://localhost");
  } catch {
    return undefined;
  }
}
