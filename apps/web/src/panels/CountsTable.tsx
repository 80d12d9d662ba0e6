/**
 * The exercise's contrast, per Foo: one create is *expected* to produce one line of each stage,
 * and the table shows what was *observed* — writes twice, watch/enqueue again from the
 * controller's own writes, and the reconcile count for that one create.
 */
import { STAGES, type KeySummary } from "@loopscope/trace";

export function CountsTable({ summary }: { summary: KeySummary }) {
  const rc = summary.reconcilesForCreate;
  return (
    <table className="counts" data-testid="counts-table" data-key={summary.key}>
      <thead>
        <tr>
          <th>tag</th>
          <th>expected</th>
          <th>observed</th>
        </tr>
      </thead>
      <tbody>
        {STAGES.map((stage) => {
          const n = summary.byStage[stage] ?? 0;
          return (
            <tr
              key={stage}
              data-testid="count-row"
              data-stage={stage}
              className={n !== 1 ? "differs" : undefined}
            >
              <td className="stage">STAGE/{stage}</td>
              <td className="num">1</td>
              <td className="num" data-testid="count-observed">
                {n}
              </td>
            </tr>
          );
        })}
        <tr className="reconciles" data-testid="count-reconciles">
          <td>reconciles for one create</td>
          <td className="num">1</td>
          <td className="num">{rc === null ? "not yet quiescent" : rc}</td>
        </tr>
      </tbody>
      <caption>
        Expected one of each; observed{" "}
        {STAGES.map((s) => `${summary.byStage[s] ?? 0} ${s}`).join(", ")}
        {rc !== null ? `, in ${rc} reconcile${rc === 1 ? "" : "s"}` : ""}.
        {summary.selfTriggered > 0 &&
          ` ${summary.selfTriggered} pass${summary.selfTriggered === 1 ? " was" : "es were"} triggered by the controller's own writes.`}
      </caption>
    </table>
  );
}
