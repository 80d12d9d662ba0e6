/**
 * What the reader could not use, or used with something lost or assumed: line number and reason. The rest of
 * the file still loaded. The summary counts lines, not messages (one line may have several), and
 * keeps apart lines skipped (errors), lines read with a loss (warnings) and notes on the whole
 * input (info, e.g. klog's missing year).
 */
import type { Diagnostic } from "@loopscope/trace";

const SHOWN = 500;

export function DiagnosticsList({
  diagnostics,
  total = diagnostics.length,
}: {
  diagnostics: readonly Diagnostic[];
  /** How many the source reported, when `diagnostics` holds only the first of them. */
  total?: number;
}) {
  if (diagnostics.length === 0) return <p className="muted">No problems reading this trace.</p>;
  const shown = Math.min(SHOWN, diagnostics.length);
  const more = Math.max(total, diagnostics.length) - shown;
  return (
    <div>
      <p data-testid="diagnostics-summary">{summary(diagnostics, total)}</p>
      <ol className="diagnostics" data-testid="diagnostics">
        {diagnostics.slice(0, shown).map((d, i) => (
          <li key={i} data-testid="diagnostic" data-level={d.level ?? "error"}>
            <span className={`level ${d.level ?? "error"}`}>{d.level ?? "error"}</span>
            {d.line > 0 && <span className="line">line {d.line}</span>} {d.message}
          </li>
        ))}
      </ol>
      {more > 0 && <p className="muted">… and {more.toLocaleString("en-US")} more.</p>}
    </div>
  );
}

function summary(diagnostics: readonly Diagnostic[], total: number): string {
  // Data that stops early (a gzip file cut short) loaded up to there, not "everything else".
  const stop = diagnostics.find((d) => d.message.startsWith(STOPS));
  const lines = (level: string) =>
    new Set(
      diagnostics.filter((d) => d !== stop && (d.level ?? "error") === level).map((d) => d.line),
    ).size;
  const n = (count: number, what: string) => `${count} line${count === 1 ? "" : "s"} ${what}`;
  const skipped = lines("error");
  const warned = lines("warn");
  const parts = [
    skipped > 0 && n(skipped, "could not be read"),
    warned > 0 && n(warned, "read with something lost or assumed"),
  ].filter(Boolean);
  const of =
    total > diagnostics.length
      ? ` (the first ${diagnostics.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} problems)`
      : "";
  if (stop) {
    const end = `the data stops at line ${stop.line.toLocaleString("en-US")}: what came before it loaded, nothing after.`;
    return parts.length > 0
      ? `${parts.join("; ")}${of}; ${end}`
      : `${end[0]!.toUpperCase()}${end.slice(1)}`;
  }
  if (parts.length === 0) return `Notes on this trace${of}; everything loaded.`;
  return `${parts.join("; ")}${of}; everything else loaded.`;
}

/** How the readers begin the warning for input that stops early (TraceReader.inputStopped). */
const STOPS = "the data stops here";
