/**
 * Reconcile passes counted by cause and outcome — what a workqueue cannot say: how many passes
 * the controller's own writes caused. Fed with the session's stage events; the passes, their
 * causes and outcomes are packages/trace's analysis, the same the dashboard shows.
 *
 * Invariant: each pass is counted once, when it closes (its `done`); a pass still running is not
 * counted yet. Label values: cause ∈ external|self|resync|retry|unknown, outcome ∈
 * synced|requeued|dropped|unknown.
 */
import { Counter, type Registry } from "prom-client";
import { PASS_CAUSES, PassStream, type TraceEvent } from "@loopscope/trace";

export class ReconcileMetrics {
  private readonly passes = new PassStream();
  private readonly total: Counter<"name" | "cause" | "outcome">;

  constructor(
    registry: Registry,
    private readonly queueName = "foos",
  ) {
    this.total = new Counter({
      name: "loopscope_reconcile_total",
      help: "Reconcile passes by cause (external, self = triggered by the controller's own write, resync, retry, unknown) and outcome.",
      labelNames: ["name", "cause", "outcome"],
      registers: [registry],
    });
    for (const cause of PASS_CAUSES)
      this.total.labels({ name: queueName, cause, outcome: "synced" }).inc(0);
  }

  /** Takes the next stage event (in seq order). */
  readonly observe = (e: TraceEvent): void => {
    for (const p of this.passes.push(e)) {
      this.total
        .labels({ name: this.queueName, cause: p.cause, outcome: p.outcome ?? "unknown" })
        .inc();
    }
  };
}
