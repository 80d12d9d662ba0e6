/** The annotated excerpt for one Foo (from packages/trace's `excerpt`), copyable and downloadable. */
import { useState } from "react";
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
        {x?.pending && <span className="muted">reading the log lines from the file…</span>}
        {copied && <span className="muted">{copied}</span>}
      </div>
      <pre data-testid="excerpt" aria-busy={x?.pending}>
        {x?.text ?? "No excerpt yet."}
      </pre>
    </div>
  );
}
