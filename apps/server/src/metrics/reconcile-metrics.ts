/**
 * Reconcile passes counted by cause and outcome — what a workqueue cannot say: how many passes
 * the controller's own writes caused. Fed with the session's stage events; the passes, their
 * causes and outcomes are packages/trace's analysis, the same the dashboard shows.
 *
 * Invariants:
 * - Each pass is counted once, when it closes (its `done`); a pass still running is not counted
 *   yet. Label values: cause ∈ external|self|resync|retry|unknown, outcome ∈
 *   synced|requeued|dropped|unknown.
 * - Memory stays bounded in a long `loopscope up` (a hot loop makes passes all day): the Analyzer
 *   keeps a record per pass, so after `maxPasses` passes it is replaced by a fresh one, at a
 *   `done` (no pass of that key open). A pass of another key open at that moment is still
 *   counted, its cause possibly read as "unknown" — a few passes in `maxPasses`.
 */
import { Counter, type Registry } from "prom-client";
import { PASS_CAUSES, PassStream, type TraceEvent } from "@loopscope/trace";

export interface ReconcileMetricsOptions {
  /** Queue name for the `name` label (default "foos", the Foo controller's queue). */
  queueName?: string;
  /** Passes analyzed before the analysis starts afresh (default 20 000). */
  maxPasses?: number;
}

export class ReconcileMetrics {
  private passes = new PassStream();
  private counted = 0;
  /** How many times the analysis started afresh (for tests and curiosity). */
  generation = 0;
  private readonly total: Counter<"name" | "cause" | "outcome">;
  private readonly queueName: string;
  private readonly maxPasses: number;

  constructor(registry: Registry, opts: ReconcileMetricsOptions = {}) {
    this.queueName = opts.queueName ?? "foos";
    this.maxPasses = Math.max(1, opts.maxPasses ?? 20_000);
    this.total = new Counter({
      name: "loopscope_reconcile_total",
      help: "Reconcile passes by cause (external, self = triggered by the controller's own write, resync, retry, unknown) and outcome.",
      labelNames: ["name", "cause", "outcome"],
      registers: [registry],
    });
    for (const cause of PASS_CAUSES)
      this.total.labels({ name: this.queueName, cause, outcome: "synced" }).inc(0);
  }

  /** Takes the next stage event (in seq order). */
  readonly observe = (e: TraceEvent): void => {
    for (const p of this.passes.push(e)) {
      this.counted++;
      this.total
        .labels({ name: this.queueName, cause: p.cause, outcome: p.outcome ?? "unknown" })
        .inc();
    }
    if (this.counted >= this.maxPasses && e.stage === "done") {
      this.passes = new PassStream();
      this.counted = 0;
      this.generation++;
    }
  };
}
