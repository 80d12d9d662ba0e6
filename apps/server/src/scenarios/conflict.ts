/**
 * Optimistic concurrency, on demand: while status writes are slowed down (150 ms), a competing
 * writer bumps an annotation on the Foo every 40 ms. The controller's UpdateStatus carries the
 * resourceVersion its lister read, which is stale by the time the write is served: 409 Conflict,
 * the pass ends in error and the key is re-added rate-limited (5 ms, 10 ms …). Once the writer
 * stops, the next pass goes through and the key converges.
 */
import type { TraceEvent } from "@loopscope/trace";
import type { Scenario } from "./scenario.ts";
import {
  createAndSettle,
  fooKey,
  needFaults,
  ofKey,
  settledAt,
  startClean,
  untilTrace,
  NS,
} from "./steps.ts";

const NAME = "example-foo";
/** Conflicts to show before the competing writer stops. */
export const CONFLICTS = 3;
/** The scenario's note as the competing writer starts: what came before it is not its doing. */
const WRITER_STARTS =
  "scenario: writes slowed to 150 ms; a competing writer edits the Foo every 40 ms";

export const conflict: Scenario = {
  name: "conflict",
  title: "Conflict: a competing writer",
  teaches:
    "A write based on a stale read gets 409 Conflict; the pass fails, the key comes back rate-limited and a later pass, reading the newer object, succeeds.",
  injectsFaults: true,
  async run(ctx) {
    const faults = needFaults(ctx, "conflict");
    const key = fooKey(NAME);
    await startClean(ctx, [NAME]);
    await createAndSettle(ctx, NAME);
    ctx.mark(WRITER_STARTS, key);
    faults.setLatency("update", 150);
    faults.competingWriter.start({ kind: "Foo", namespace: NS, name: NAME, intervalMs: 40 });
    try {
      await untilTrace(ctx, `${CONFLICTS} conflicts and a rate-limited retry`, (evs) => {
        const since = sinceWriter(evs, key);
        const conflicts = ofKey(since, key, "write").filter((w) => w.code === 409).length;
        const retries = ofKey(since, key, "enqueue").filter((q) => q.cause === "retry").length;
        return conflicts >= CONFLICTS && retries >= 1;
      });
    } finally {
      faults.competingWriter.stop();
      faults.setLatency("update", 0);
    }
    ctx.mark("scenario: competing writer stopped; writes fast again", key);
    await settledAt(ctx, NAME, 1);
    ctx.log(conflictsFound(ctx.events.events, key));
  },
};

/**
 * The events from the competing writer's start on: a 409 before it (the create's own, on a
 * lister behind our write) is not one the writer caused.
 */
function sinceWriter(events: readonly TraceEvent[], key: string): readonly TraceEvent[] {
  const at = events.findIndex(
    (e) => e.stage === "note" && e.key === key && e.text === WRITER_STARTS,
  );
  return at < 0 ? [] : events.slice(at);
}

/** What the run showed, in the words the dashboard's bar and `loopscope run` print. */
export function conflictsFound(events: readonly TraceEvent[], key: string): string {
  const since = sinceWriter(events, key);
  const refused = ofKey(since, key, "write").filter((w) => w.code === 409).length;
  const delays = ofKey(since, key, "done").flatMap((d) =>
    d.outcome === "requeued" && d.delayMs !== undefined ? [d.delayMs] : [],
  );
  const shown = delays.length > 6 ? [...delays.slice(0, 6), "…"] : delays;
  return (
    `${refused} write${refused === 1 ? "" : "s"} refused with 409 Conflict, each based on a read ` +
    `the competing writer had outdated; the key came back rate-limited` +
    (shown.length > 0 ? ` after ${shown.join(", ")} ms` : "") +
    "; once the writer stopped, a pass read the newer Foo and its write went through"
  );
}
