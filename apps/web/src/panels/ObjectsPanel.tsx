/**
 * Every Foo seen, with its pass count, self-triggered passes, conflicts and state. Click selects
 * one; ctrl/⌘/shift-click adds to the selection (the timeline stacks their lane groups).
 */
import type { KeySummary } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { memo } from "react";
import { useSessionVersion, useViewPick } from "../app/hooks.ts";
import { visibleRows } from "./visibleRows.ts";

export function objectState(s: KeySummary | undefined): { label: string; tone: string } {
  if (!s) return { label: "…", tone: "muted" };
  if (s.hotLoop) return { label: "hot loop", tone: "bad" };
  if (s.quiescent) return { label: "quiescent", tone: "good" };
  return { label: "settling", tone: "warn" };
}

export const ObjectsPanel = memo(function ObjectsPanel({
  session,
  view,
}: {
  session: TraceSession;
  view: ViewStore;
}) {
  useSessionVersion(session, 250);
  const selectedKeys = useViewPick(view, (s) => s.selectedKeys);
  const search = useViewPick(view, (s) => s.search);
  const q = search.trim().toLowerCase();
  const keys = session.store.keyList().filter((k) => !q || k.toLowerCase().includes(q));
  const rows = visibleRows(keys, selectedKeys);
  return (
    <section className="panel objects" aria-label="Objects">
      <h2>
        Objects <span className="count">{keys.length}</span>
      </h2>
      <table data-testid="objects-table">
        <thead>
          <tr>
            <th>Foo</th>
            <th title="passes (reconciles)">passes</th>
            <th title="passes triggered only by the controller's own writes">self</th>
            <th title="409 conflicts">409</th>
            <th>state</th>
          </tr>
        </thead>
        <tbody>
          {rows.shown.map((key) => {
            const s = session.summaryOf(key);
            const st = objectState(s);
            const selected = selectedKeys.includes(key);
            return (
              <tr
                key={key}
                data-testid="object-row"
                data-key={key}
                aria-selected={selected}
                className={selected ? "selected" : undefined}
                onClick={(ev) => view.toggleKey(key, ev.ctrlKey || ev.metaKey || ev.shiftKey)}
              >
                <td className="key" title={key}>
                  {key.includes("/") && (
                    <span className="ns">{key.slice(0, key.indexOf("/") + 1)}</span>
                  )}
                  {key.slice(key.indexOf("/") + 1)}
                </td>
                <td className="num">{s?.passes ?? "–"}</td>
                <td className={`num ${s && s.selfTriggered > 0 ? "self" : ""}`}>
                  {s?.selfTriggered ?? "–"}
                </td>
                <td className="num">{s?.conflicts ?? "–"}</td>
                <td>
                  <span className={`badge ${st.tone}`} data-testid="object-state">
                    {st.label}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {keys.length === 0 && <p className="muted">No objects yet.</p>}
      {rows.hidden > 0 && (
        <p className="muted" data-testid="objects-more">
          {rows.hidden.toLocaleString()} more — type in the filter to find one
        </p>
      )}
    </section>
  );
});
