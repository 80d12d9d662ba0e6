/**
 * Workqueue metrics, shaped like client-go's `workqueue.MetricsProvider` so a Prometheus backend
 * (apps/server, prom-client) maps one to one onto the metric names client-go exports:
 * depth, adds, queue latency, work duration, unfinished work seconds, longest running processor
 * seconds, retries.
 *
 * Invariants:
 * - The queue calls these only while a provider other than the no-op one is installed, so the
 *   default costs nothing on the hot path beyond one method call per queue operation.
 * - Durations are seconds (Prometheus convention), as in client-go.
 * - `depth` counts dirty items: inc when an item becomes dirty (ready, or parked behind the
 *   worker holding it), dec when a worker takes it — client-go's accounting.
 */

export interface GaugeMetric {
  inc(): void;
  dec(): void;
}
export interface SettableGaugeMetric {
  set(value: number): void;
}
export interface CounterMetric {
  inc(): void;
}
export interface HistogramMetric {
  observe(value: number): void;
}

/** client-go's MetricsProvider: one factory per metric, called once per named queue. */
export interface WorkqueueMetricsProvider {
  newDepthMetric(name: string): GaugeMetric;
  newAddsMetric(name: string): CounterMetric;
  newLatencyMetric(name: string): HistogramMetric;
  newWorkDurationMetric(name: string): HistogramMetric;
  newUnfinishedWorkSecondsMetric(name: string): SettableGaugeMetric;
  newLongestRunningProcessorSecondsMetric(name: string): SettableGaugeMetric;
  newRetriesMetric(name: string): CounterMetric;
}

const noop = { inc() {}, dec() {}, set() {}, observe() {} };

/** The default: records nothing. */
export const noopMetricsProvider: WorkqueueMetricsProvider = {
  newDepthMetric: () => noop,
  newAddsMetric: () => noop,
  newLatencyMetric: () => noop,
  newWorkDurationMetric: () => noop,
  newUnfinishedWorkSecondsMetric: () => noop,
  newLongestRunningProcessorSecondsMetric: () => noop,
  newRetriesMetric: () => noop,
};

/**
 * The per-queue recorder the queue drives (client-go's `queueMetrics`): remembers when each item
 * was added and when its processing started, to observe latency and work duration.
 */
export class QueueMetrics<T> {
  private readonly depth: GaugeMetric;
  private readonly adds: CounterMetric;
  private readonly latency: HistogramMetric;
  private readonly workDuration: HistogramMetric;
  private readonly unfinished: SettableGaugeMetric;
  private readonly longest: SettableGaugeMetric;
  readonly retries: CounterMetric;
  private readonly addTimes = new Map<T, number>();
  private readonly processingStart = new Map<T, number>();

  constructor(
    name: string,
    provider: WorkqueueMetricsProvider,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.depth = provider.newDepthMetric(name);
    this.adds = provider.newAddsMetric(name);
    this.latency = provider.newLatencyMetric(name);
    this.workDuration = provider.newWorkDurationMetric(name);
    this.unfinished = provider.newUnfinishedWorkSecondsMetric(name);
    this.longest = provider.newLongestRunningProcessorSecondsMetric(name);
    this.retries = provider.newRetriesMetric(name);
  }

  /** An item became dirty (entered the FIFO, or was parked behind its worker). */
  add(item: T): void {
    this.adds.inc();
    this.depth.inc();
    if (!this.addTimes.has(item)) this.addTimes.set(item, this.now());
  }

  /** An item left the FIFO for a worker. */
  get(item: T): void {
    this.depth.dec();
    const t = this.now();
    this.processingStart.set(item, t);
    const added = this.addTimes.get(item);
    if (added !== undefined) {
      this.latency.observe((t - added) / 1000);
      this.addTimes.delete(item);
    }
  }

  /** The worker called Done. */
  done(item: T): void {
    const started = this.processingStart.get(item);
    if (started !== undefined) {
      this.workDuration.observe((this.now() - started) / 1000);
      this.processingStart.delete(item);
    }
  }

  /** Periodic: seconds of work in flight, and the oldest in-flight item's age. */
  updateUnfinishedWork(): void {
    const t = this.now();
    let total = 0;
    let oldest = 0;
    for (const started of this.processingStart.values()) {
      const age = t - started;
      total += age;
      if (age > oldest) oldest = age;
    }
    this.unfinished.set(total / 1000);
    this.longest.set(oldest / 1000);
  }
}
