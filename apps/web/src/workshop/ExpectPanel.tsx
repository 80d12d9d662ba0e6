/**
 * "What did you expect?" — the exercise's Observe / Expect / Write down for the focused Foo,
 * filled in from the trace: tag counts against the naive one-of-each, which writes echoed back,
 * whether the second pass was a no-op, and the reconcile count.
 */
import type { TraceSession } from "../store/session.ts";
import { NoStageLines, OffTheWire } from "../panels/CountsTable.tsx";
import { passesWithoutStages, unseenStages } from "../panels/stageLines.ts";
import { expectations, reconcileLabel } from "./expectations.ts";

export function ExpectPanel({
  session,
  focusKey,
  onGo,
}: {
  session: TraceSession;
  focusKey: string | undefined;
  onGo: (seq: number) => void;
}) {
  const summary = focusKey ? session.summaryOf(focusKey) : undefined;
  const excerpt = focusKey ? session.excerpt(focusKey)?.excerpt : undefined;
  if (!focusKey || !summary || !excerpt)
    return <p className="muted">Select a Foo to compare what you expected with what happened.</p>;
  if (passesWithoutStages(session.store, excerpt)) return <NoStageLines excerpt={excerpt} />;
  const x = expectations(excerpt, summary);
  const unseen = unseenStages(session.store);
  const mark = (ok: boolean | undefined) =>
    ok === undefined ? (
      <span className="mark pending">…</span>
    ) : ok ? (
      <span className="mark ok">✓</span>
    ) : (
      <span className="mark no">✗</span>
    );
  return (
    <div className="expect" data-testid="expect-panel">
      <section>
        <h3>Observe — STAGE lines for {x.listed ? "one listing at start" : "one creation"}</h3>
        <table className="expect-counts" data-testid="expect-counts">
          <thead>
            <tr>
              <th>tag</th>
              <th>expected</th>
              <th>observed</th>
            </tr>
          </thead>
          <tbody>
            {x.counts.map((c) => (
              <tr key={c.stage} data-stage={c.stage}>
                <td className="mono">STAGE/{c.stage}</td>
                <td>1</td>
                {unseen.includes(c.stage) ? (
                  <td data-testid={`observed-${c.stage}`}>
                    <OffTheWire stage={c.stage} n={c.observed} />
                  </td>
                ) : (
                  <td
                    className={c.observed === 1 ? "" : "differs"}
                    data-testid={`observed-${c.stage}`}
                  >
                    {c.observed}
                    {c.observed !== 1 ? " ≠ 1" : ""}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h3>Expect — our writes coming back</h3>
        <ul className="echo-list" data-testid="echo-list">
          {x.writes.map((w) => (
            <li key={w.write.seq}>
              <button className="link" onClick={() => onGo(w.write.seq)}>
                seq {w.write.seq}
              </button>{" "}
              <span className="mono">
                {w.write.verb} {w.write.target.replace(/^(deployments|foos)\/[^/]+\//, "$1/")}
              </span>{" "}
              →{" "}
              {w.echoSeq !== undefined ? (
                <>
                  came back as{" "}
                  <button className="link" onClick={() => onGo(w.echoSeq!)}>
                    {w.echoWhat} (seq {w.echoSeq})
                  </button>
                </>
              ) : w.noop ? (
                <span className="muted">no-op: same rv, no watch event</span>
              ) : (
                <span className="muted">no echo seen</span>
              )}
            </li>
          ))}
        </ul>
        <p data-testid="second-pass">
          {mark(x.secondPass?.ok)} the second pass is a no-op
          {x.secondPass && <span className="muted"> — {x.secondPass.why}</span>}
        </p>
        <p data-testid="first-self">
          {mark(x.firstSelf?.ok)} the first self-triggered pass finds nothing to do
          {x.firstSelf && <span className="muted"> — {x.firstSelf.why}</span>}
        </p>
        {x.hotLoop && (
          <p className="hot" data-testid="expect-hot-loop">
            ✗ hot loop:{" "}
            {/* The finding's words, as the Findings tab and `loopscope stats` give them. */}
            {session.findings().find((f) => f.kind === "hot-loop" && f.key === focusKey)?.detail ??
              "passes triggered by its own writes keep writing"}
          </p>
        )}
      </section>
      <section>
        <h3>Write down</h3>
        <p className="reconciles" data-testid="reconcile-count">
          {reconcileLabel(x.listed)}:{" "}
          <strong>{x.reconciles ?? (x.quiescent ? "—" : "not quiescent")}</strong>
        </p>
        <pre className="write-down" data-testid="write-down">
          {x.writeDown}
        </pre>
        <button onClick={() => void navigator.clipboard?.writeText(x.writeDown)}>copy</button>
      </section>
    </div>
  );
}
