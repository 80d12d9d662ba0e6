/**
 * Route modules every dashboard server mounts beside /api, live and replay alike. To add one,
 * append its factory here — e.g. the Prometheus endpoint:
 *
 *   mountedRoutes.push((backend) => [
 *     { method: "GET", path: "/metrics", access: "public", handle: ({ res }) => … },
 *   ]);
 *
 * A route's `access` decides the checks the router makes before calling it (router.ts): "public"
 * passes the Host check only (fit for a scraper on loopback), "read" needs either token, "write"
 * the owner token and a same-origin JSON POST. Paths under /api/ belong to the protocol.
 */
import type { DashboardBackend } from "../dashboard/backend.ts";
import type { Route } from "./router.ts";

export type RouteModule = (backend: DashboardBackend) => Route[];

export const mountedRoutes: RouteModule[] = [];
