/**
 * The annotated excerpt for one Foo (packages/trace's `excerpt`, the text the CLI prints), one
 * element per row, copyable and downloadable.
 */
import { useState, type CSSProperties } from "react";
import { excerptLineColumn } from "@loopscope/trace";
import type { ExcerptText } from "../store/excerptPort.ts";
import type { TraceSession } from "../store/session.ts";

export function downloadText(name: string, text: string, type = "text/markdown"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExcerptPanel({ session, keyName }: { session: TraceSession; keyName: string }) {
  const [copied, setCopied] = useState<string | undefined>();
  const x = session.excerpt(keyName);
  const file = `excerpt-${keyName.replace(/[^A-Za-z0-9._-]+/g, "_")}.md`;
  return (
    <div className="excerpt">
      <div className="toolbar">
        <button
          data-testid="excerpt-copy"
          disabled={!x || x.pending}
          onClick={() =>
            navigator.clipboard.writeText(x?.markdown ?? "").then(
              () => setCopied("copied"),
              () => setCopied("clipboard not available"),
            )
          }
        >
          Copy as Markdown
        </button>
        <button
          data-testid="excerpt-download"
          disabled={!x || x.pending}
          onClick={() => x && downloadText(file, x.markdown)}
        >
          Download
        </button>
        {x?.pending && (
          <span className="muted" data-testid="excerpt-pending">
            reading the log lines from the file… (until then, each line is rebuilt from its fields,
            greyed)
          </span>
        )}
        {copied && <span className="muted">{copied}</span>}
      </div>
      {/* Long rows wrap, what wraps indented to the log line's column, so each row's note at
          its end (‹self, echo of …›) is in view at any width, without scrolling sideways. */}
      <pre
        data-testid="excerpt"
        aria-busy={x?.pending}
        style={{ "--line-column": x ? excerptLineColumn(x.excerpt) : 0 } as CSSProperties}
      >
        {x ? <ExcerptRows x={x} /> : "No excerpt yet."}
      </pre>
    </div>
  );
}

/** renderExcerptText's title and blank line come before the rows, one line each. */
const LINES_BEFORE_ROWS = 2;

/** The text's lines; a row's note (`‹…›` at its end) kept whole where the row wraps. */
function ExcerptRows({ x }: { x: ExcerptText }) {
  const lines = x.text.replace(/\n$/, "").split("\n");
  return lines.map((line, i) => {
    const row = x.excerpt.rows[i - LINES_BEFORE_ROWS];
    const note = row?.kind === "event" && row.note ? `‹${row.note}›` : undefined;
    // Each row keeps its newline: the text (textContent, a copy) reads as the CLI prints it, and
    // a block's last line feed draws no empty line.
    // The title and the pass rules are prose, not log lines: they wrap at the left edge (indented
    // to the log line's column, a narrow pane left one word of the title per line).
    if (row?.kind !== "event")
      return (
        <div key={i} className="prose">
          {line + "\n"}
        </div>
      );
    if (note === undefined || !line.endsWith(note)) return <div key={i}>{line + "\n"}</div>;
    return (
      <div key={i}>
        {line.slice(0, -note.length)}
        <span className="note">{note}</span>
        {"\n"}
      </div>
    );
  });
}
