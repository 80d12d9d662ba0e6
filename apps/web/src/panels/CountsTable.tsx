/**
 * The exercise's contrast, per Foo: one create is *expected* to produce one line of each stage,
 * and the table shows what was *observed* from the creation until the Foo was quiescent — the
 * excerpt's span, so the two agree — writes twice, watch/enqueue again from the controller's own
 * writes, and the reconcile count for that one create.
 */
import { excerptSpan, STAGES, type Excerpt, type Stage } from "@loopscope/trace";

export function CountsTable({
  excerpt,
  withoutStages = false,
  unseen = [],
}: {
  excerpt: Excerpt;
  /** The trace has no stage lines at all (see stageLines.ts): there are no stages to count. */
  withoutStages?: boolean;
  /** Stages the trace could not see (a proxy's, see stageLines.ts): no expectation to miss. */
  unseen?: readonly Stage[];
}) {
  if (withoutStages) return <NoStageLines excerpt={excerpt} />;
  const rc = excerpt.reconciles;
  const self = excerpt.rows.filter((r) => r.kind === "pass" && r.pass.cause === "self").length;
  const span = excerptSpan(excerpt);
  return (
    <table className="counts" data-testid="counts-table" data-key={excerpt.key}>
      <thead>
        <tr>
          <th>tag</th>
          <th>expected</th>
          <th title={`Lines of each tag ${span}: the excerpt's span`}>observed</th>
        </tr>
      </thead>
      <tbody>
        {STAGES.map((stage) => {
          const n = excerpt.counts[stage];
          const offWire = unseen.includes(stage);
          return (
            <tr
              key={stage}
              data-testid="count-row"
              data-stage={stage}
              className={n !== 1 && !offWire ? "differs" : undefined}
            >
              <td className="stage">STAGE/{stage}</td>
              <td className="num">1</td>
              <td className="num" data-testid="count-observed">
                {offWire ? <OffTheWire stage={stage} n={n} /> : n}
              </td>
            </tr>
          );
        })}
        <tr className="reconciles" data-testid="count-reconciles">
          <td>
            {excerpt.listed ? "reconciles after the initial list" : "reconciles for one create"}
          </td>
          <td className="num">1</td>
          <td className="num">
            {rc !== null ? rc : excerpt.created ? "not quiescent" : "no creation in trace"}
          </td>
        </tr>
      </tbody>
      <caption>
        Expected one of each; {span}, observed{" "}
        {STAGES.map((s) => `${excerpt.counts[s]} ${s}`).join(", ")}
        {rc !== null ? `, in ${rc} reconcile${rc === 1 ? "" : "s"}` : ""}.
        {excerpt.cut &&
          ` Counted over the excerpt's first ${excerpt.cut.rows} lines: ${excerpt.passes} of the ${excerpt.cut.passesInSpan} passes in its span.`}
        {self > 0 &&
          ` ${self} pass${self === 1 ? " was" : "es were"} triggered by the controller's own writes.`}
      </caption>
    </table>
  );
}

/** A stage the proxy cannot see: what its count means instead of a miss against "1". */
export function OffTheWire({ stage, n }: { stage: Stage; n: number }) {
  const [short, why] =
    stage === "enqueue"
      ? [`${n} inferred`, "loopscope proxy infers one per watch event it passed on"]
      : stage === "read"
        ? [
            `${n} API GETs`,
            "only GETs that reached the API; the controller's lister reads are unseen",
          ]
        : ["unseen", "a worker's Get from its queue never reaches the wire"];
  return (
    <span className="muted" data-testid="off-the-wire" title={why}>
      {short}
    </span>
  );
}

/**
 * A log without STAGE lines (an unpatched sample-controller's): its passes, how they ended, and
 * what would show the five stages — not a table of five zeros against "expected 1". The counts
 * table and the workshop's "What did you expect?" both say it.
 */
export function NoStageLines({ excerpt }: { excerpt: Excerpt }) {
  let failed = 0;
  for (const r of excerpt.rows) if (r.kind === "pass" && r.pass.outcome === "requeued") failed++;
  const n = excerpt.passes;
  return (
    <div className="counts no-stages" data-testid="counts-no-stages" data-key={excerpt.key}>
      <p>
        <strong>This log has no STAGE lines</strong>: passes come from its “Successfully synced” /
        “Error syncing” lines — {n} pass{n === 1 ? "" : "es"}
        {failed > 0 ? `, ${failed} of them ended in error` : ""}.
      </p>
      <p className="muted">
        Without them there is no watch, enqueue, dequeue, read or write to count, no creation to
        count reconciles from, and no cause beyond a guess (a pass after an error is taken for its
        retry). The patch in docs/go-controller.md adds the STAGE lines (eleven, at the five stages)
        to sample-controller.
      </p>
    </div>
  );
}
