/** Lint-style findings of the analysis (hot loops, conflicts, retries, orphans). */
import type { Finding } from "@loopscope/trace";
import type { ViewStore } from "../store/viewState.ts";

export function FindingsList({
  findings,
  view,
}: {
  findings: readonly Finding[];
  view: ViewStore;
}) {
  if (findings.length === 0) return <p className="muted">No findings.</p>;
  return (
    <ul className="findings" data-testid="findings">
      {findings.map((f, i) => (
        <li key={i} data-testid="finding" data-kind={f.kind}>
          <button
            className="link"
            onClick={() =>
              view.set({
                selectedKeys: f.key ? [f.key] : [],
                selectedSeq: f.seq,
                window: undefined,
              })
            }
          >
            <span
              className={`badge ${f.kind === "hot-loop" || f.kind === "conflict" ? "bad" : "warn"}`}
            >
              {f.kind}
            </span>{" "}
            {f.key || "(no Foo)"}
          </button>{" "}
          {f.detail}
          {f.fields && f.fields.length > 0 && (
            <span className="muted"> — differs each pass: {f.fields.join(", ")}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
