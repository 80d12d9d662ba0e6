/**
 * client-go's workqueue metrics, in Prometheus form: the same names, help texts, label and
 * buckets as k8s.io/component-base/metrics/prometheus/workqueue (what `workqueue_*` means on any
 * Kubernetes controller's /metrics), backing packages/controller's WorkqueueMetricsProvider.
 *
 * Invariants:
 * - One label, `name`: the queue's name ("foos" for the Foo controller).
 * - The provider owns its metric families in one registry; asking for the same queue name twice
 *   returns the same children (client-go's provider is per process, queues per name).
 * - Durations are seconds; histogram buckets are client-go's ExponentialBuckets(10e-9, 10, 10).
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { WorkqueueMetricsProvider } from "@loopscope/controller";

/** prometheus.ExponentialBuckets(10e-9, 10, 10): 10 ns … 10 s. */
export const WORKQUEUE_BUCKETS = Array.from({ length: 10 }, (_, i) =>
  Number((1e-8 * 10 ** i).toPrecision(1)),
);

export class PromWorkqueueMetrics implements WorkqueueMetricsProvider {
  private readonly depth: Gauge<"name">;
  private readonly adds: Counter<"name">;
  private readonly latency: Histogram<"name">;
  private readonly workDuration: Histogram<"name">;
  private readonly unfinished: Gauge<"name">;
  private readonly longest: Gauge<"name">;
  private readonly retries: Counter<"name">;

  constructor(registry: Registry) {
    const registers = [registry];
    const labelNames = ["name"] as const;
    this.depth = new Gauge({
      name: "workqueue_depth",
      help: "Current depth of workqueue",
      labelNames,
      registers,
    });
    this.adds = new Counter({
      name: "workqueue_adds_total",
      help: "Total number of adds handled by workqueue",
      labelNames,
      registers,
    });
    this.latency = new Histogram({
      name: "workqueue_queue_duration_seconds",
      help: "How long in seconds an item stays in workqueue before being requested.",
      labelNames,
      buckets: WORKQUEUE_BUCKETS,
      registers,
    });
    this.workDuration = new Histogram({
      name: "workqueue_work_duration_seconds",
      help: "How long in seconds processing an item from workqueue takes.",
      labelNames,
      buckets: WORKQUEUE_BUCKETS,
      registers,
    });
    this.unfinished = new Gauge({
      name: "workqueue_unfinished_work_seconds",
      help:
        "How many seconds of work has done that is in progress and hasn't been observed by work_duration. " +
        "Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
      labelNames,
      registers,
    });
    this.longest = new Gauge({
      name: "workqueue_longest_running_processor_seconds",
      help: "How many seconds has the longest running processor for workqueue been running.",
      labelNames,
      registers,
    });
    this.retries = new Counter({
      name: "workqueue_retries_total",
      help: "Total number of retries handled by workqueue",
      labelNames,
      registers,
    });
  }

  newDepthMetric(name: string) {
    const g = this.depth.labels({ name });
    g.set(0);
    return { inc: () => g.inc(), dec: () => g.dec() };
  }

  newAddsMetric(name: string) {
    const c = this.adds.labels({ name });
    c.inc(0);
    return { inc: () => c.inc() };
  }

  newLatencyMetric(name: string) {
    const h = this.latency.labels({ name });
    return { observe: (v: number) => h.observe(v) };
  }

  newWorkDurationMetric(name: string) {
    const h = this.workDuration.labels({ name });
    return { observe: (v: number) => h.observe(v) };
  }

  newUnfinishedWorkSecondsMetric(name: string) {
    const g = this.unfinished.labels({ name });
    g.set(0);
    return { set: (v: number) => g.set(v) };
  }

  newLongestRunningProcessorSecondsMetric(name: string) {
    const g = this.longest.labels({ name });
    g.set(0);
    return { set: (v: number) => g.set(v) };
  }

  newRetriesMetric(name: string) {
    const c = this.retries.labels({ name });
    c.inc(0);
    return { inc: () => c.inc() };
  }
}
