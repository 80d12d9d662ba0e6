/**
 * GET /metrics in the Prometheus text format, as a route for the dashboard's router
 * (http/router.ts; mount it through http/mounted-routes.ts).
 *
 * Access defaults to "public": the server binds loopback and the router still checks Host, so a
 * local Prometheus can scrape without a token; pass "read" to require one (`?token=`).
 */
import type { Registry } from "prom-client";
import type { Route } from "../http/router.ts";

export function metricsRoute(registry: Registry, access: Route["access"] = "public"): Route {
  return {
    method: "GET",
    path: "/metrics",
    access,
    async handle({ res }) {
      const body = await registry.metrics();
      res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
      res.end(body);
    },
  };
}
