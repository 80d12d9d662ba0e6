/**
 * Lint-style findings of the analysis (another controller at work, hot loops, conflicts, retries,
 * orphans), narrowed by kind or to the selected Foo (see findingsFilter.ts). A finding's button
 * selects its Foo and event.
 */
import { useState } from "react";
import { listInBrief, type Finding, type FindingKind } from "@loopscope/trace";
import type { ViewStore } from "../store/viewState.ts";
import { countByKind, filterFindings, SHOWN_FINDINGS } from "./findingsFilter.ts";

/** Kinds drawn as serious: the picture itself is wrong, or the controller never settles. */
const BAD: ReadonlySet<FindingKind> = new Set(["other-controller", "hot-loop", "conflict"]);

export function FindingsList({
  findings,
  view,
  focusKey,
  earlierLife,
}: {
  findings: readonly Finding[];
  view: ViewStore;
  /** The selected Foo, which the list can be narrowed to. */
  focusKey?: string;
  /** Whether a finding is about an earlier life of its Foo (deleted and created again since). */
  earlierLife?: (f: Finding) => boolean;
}) {
  const [kind, setKind] = useState<FindingKind | undefined>(undefined);
  const [onlyFocus, setOnlyFocus] = useState(false);
  if (findings.length === 0) return <p className="muted">No findings.</p>;
  const counts = countByKind(findings);
  // A kind that is no longer there (another trace) narrows to nothing: show every kind.
  const shownKind = counts.some(([k]) => k === kind) ? kind : undefined;
  const key = onlyFocus ? focusKey : undefined;
  const matching = filterFindings(findings, { kind: shownKind, key });
  const shown = matching.slice(0, SHOWN_FINDINGS);
  const more = matching.length - shown.length;
  const kindButton = (k: FindingKind | undefined, label: string, n: number) => (
    <button
      key={k ?? "all"}
      className="chip"
      aria-pressed={shownKind === k}
      onClick={() => setKind(k)}
      data-testid={`findings-kind-${k ?? "all"}`}
    >
      {label} <span className="muted">{n.toLocaleString("en-US")}</span>
    </button>
  );
  return (
    <div>
      <div className="findings-filter" role="group" aria-label="Show findings">
        {kindButton(undefined, "all", findings.length)}
        {counts.map(([k, n]) => kindButton(k, k, n))}
        {focusKey && (
          <label>
            <input
              type="checkbox"
              checked={onlyFocus}
              onChange={(e) => setOnlyFocus(e.target.checked)}
              data-testid="findings-only-focus"
            />{" "}
            only {focusKey}
          </label>
        )}
      </div>
      {shown.length === 0 && (
        <p className="muted" data-testid="findings-none">
          No {shownKind ?? ""} findings{key ? ` about ${key}` : ""}.
        </p>
      )}
      <ul className="findings" data-testid="findings">
        {shown.map((f, i) => (
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
              <span className={`badge ${BAD.has(f.kind) ? "bad" : "warn"}`}>{f.kind}</span>{" "}
              {f.key || "(no Foo)"}
            </button>{" "}
            {f.detail}
            {earlierLife?.(f) && (
              <span className="muted" data-testid="finding-earlier-life">
                {" "}
                (an earlier life of this Foo: it has been created again since)
              </span>
            )}
            {f.fields && f.fields.length > 0 && (
              <span className="muted"> — differs each pass: {listInBrief(f.fields)}</span>
            )}
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="muted" data-testid="findings-more">
          … and {more.toLocaleString("en-US")} more: choose a kind, or select a Foo and tick “only”.
        </p>
      )}
    </div>
  );
}
