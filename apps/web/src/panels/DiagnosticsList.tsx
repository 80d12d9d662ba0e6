/** Lines the reader could not use: line number and reason. The rest of the file still loaded. */
import type { Diagnostic } from "@loopscope/trace";

const SHOWN = 500;

export function DiagnosticsList({ diagnostics }: { diagnostics: readonly Diagnostic[] }) {
  if (diagnostics.length === 0) return <p className="muted">No problems reading this trace.</p>;
  return (
    <div>
      <p>
        {diagnostics.length} line{diagnostics.length === 1 ? "" : "s"} could not be read; everything
        else loaded.
      </p>
      <ol className="diagnostics" data-testid="diagnostics">
        {diagnostics.slice(0, SHOWN).map((d, i) => (
          <li key={i} data-testid="diagnostic" data-level={d.level ?? "error"}>
            <span className={`level ${d.level ?? "error"}`}>{d.level ?? "error"}</span>
            <span className="line">line {d.line}</span> {d.message}
          </li>
        ))}
      </ol>
      {diagnostics.length > SHOWN && (
        <p className="muted">… and {diagnostics.length - SHOWN} more.</p>
      )}
    </div>
  );
}
