/**
 * The server's Prometheus metrics: client-go's workqueue metrics for the controller's queue, and
 * reconcile passes by cause. Wiring (the live session):
 *
 *   const metrics = createMetrics();
 *   const session = await startSession({ …, metrics: metrics.workqueue, onEvent: (e) => { const seq = hub.push(e); … } });
 *   hub.subscribe(metrics.reconciles.observe);            // every stage event, in seq order
 *   mountedRoutes.push(() => [metrics.route()]);           // GET /metrics
 */
import { Registry, collectDefaultMetrics } from "prom-client";
import type { Route } from "../http/router.ts";
import { PromWorkqueueMetrics } from "./workqueue-metrics.ts";
import { ReconcileMetrics } from "./reconcile-metrics.ts";
import { metricsRoute } from "./route.ts";

export { PromWorkqueueMetrics, WORKQUEUE_BUCKETS } from "./workqueue-metrics.ts";
export { ReconcileMetrics } from "./reconcile-metrics.ts";
export { metricsRoute } from "./route.ts";

export interface LoopscopeMetrics {
  registry: Registry;
  /** Pass to startSession / FooController as `metrics`. */
  workqueue: PromWorkqueueMetrics;
  /** Feed every stage event to `reconciles.observe`. */
  reconciles: ReconcileMetrics;
  route(access?: Route["access"]): Route;
}

export interface MetricsOptions {
  /** Also export Node's process metrics (process_cpu_seconds_total, …). Default false. */
  processMetrics?: boolean;
}

export function createMetrics(opts: MetricsOptions = {}): LoopscopeMetrics {
  const registry = new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    workqueue: new PromWorkqueueMetrics(registry),
    reconciles: new ReconcileMetrics(registry),
    route: (access) => metricsRoute(registry, access),
  };
}
