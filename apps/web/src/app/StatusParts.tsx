/**
 * Parts of the shell that follow the session's version (event count, load progress, the bottom
 * tabs), split out so a new batch re-renders them and not the whole page.
 */
import { memo, useDeferredValue, useState } from "react";
import { API, type RecordingFailure } from "@loopscope/protocol";
import { CountsTable } from "../panels/CountsTable.tsx";
import { DiagnosticsList } from "../panels/DiagnosticsList.tsx";
import { ExcerptPanel } from "../panels/ExcerptPanel.tsx";
import { FindingsList } from "../panels/FindingsList.tsx";
import { aboutEarlierLife } from "../panels/earlierLife.ts";
import { passesWithoutStages, unseenStages } from "../panels/stageLines.ts";
import type { ConnectionState } from "../live/connection.ts";
import type { TraceSession } from "../store/session.ts";
import type { ConnectionBadge as Badge } from "./connectionBadge.ts";
import type { ViewStore } from "../store/viewState.ts";
import { TabList, TabPanel, useTabIds } from "../ui/Tabs.tsx";
import { useSessionVersion } from "./hooks.ts";

/**
 * The connection badge: whether events can reach the page (connectionBadge). A status region, so
 * a screen reader hears it change ("server not answering · retrying") as a sighted user sees it.
 */
export function ConnectionStatus({ conn, badge }: { conn: ConnectionState; badge: Badge }) {
  return (
    <span
      role="status"
      className={`status ${badge.look}`}
      data-testid="connection-status"
      data-status={conn.status}
      data-cluster={conn.cluster && (conn.cluster.reachable ? "reachable" : "unreachable")}
      data-foo-api={conn.fooApi && (conn.fooApi.served ? "served" : "gone")}
      data-informers={conn.informers && (conn.informers.failing ? "failing" : "ok")}
      title={badge.title}
    >
      {badge.text}
    </span>
  );
}

export function EventCount({ session }: { session: TraceSession }) {
  useSessionVersion(session, 250, true);
  return (
    <span
      className="muted event-count"
      data-testid="event-count"
      data-count={session.store.length}
      data-last-seq={session.store.lastSeq()}
      title="events held · last seq"
    >
      {session.store.length.toLocaleString()} events
    </span>
  );
}

/**
 * A live run whose recording stopped (a write failed: a full disk): said in the top bar for as
 * long as the run goes on, with how many events the file lacks — every one after `savedThrough`,
 * so the count grows with the run — and a link that saves them from the server's memory.
 */
export function RecordingBadge({
  session,
  failure,
  token,
}: {
  session: TraceSession;
  failure: RecordingFailure;
  token: string;
}) {
  useSessionVersion(session, 500, true);
  const missing = Math.max(0, session.store.lastSeq() - failure.savedThrough);
  const count = missing.toLocaleString("en-US");
  const since = new Date(failure.since).toLocaleTimeString("en-GB");
  const from = failure.savedThrough + 1;
  const href = `${API.trace}?from=${from}&token=${encodeURIComponent(token)}`;
  return (
    <span className="recording-failed" data-testid="recording-failed" data-missing={missing}>
      <span
        className="status bad"
        title={
          `Writing the recording “${failure.trace}” failed at ${since}: ${failure.error}. ` +
          (failure.savedThrough > 0
            ? `The file has the events up to seq ${failure.savedThrough} and none after; `
            : "The file has no events; ") +
          `the ${count} since are in this page and the server's memory only. loopscope goes on.`
        }
      >
        recording failed · file lacks {count} event{missing === 1 ? "" : "s"}
      </span>{" "}
      <a href={href} download={`missing-from-seq-${from}.jsonl`} data-testid="recording-save">
        save them
      </a>
    </span>
  );
}

export function LoadBar({ session, error }: { session: TraceSession; error?: string }) {
  useSessionVersion(session, 250, true);
  const progress = session.progress;
  if (progress.done && !progress.error && !error) return null;
  const shown = session.store.length;
  // By bytes when the size is known (a file), else by events when their number is (a replay
  // server's trace, read as it downloads), else a bar that only says it is busy.
  const pct = progress.total
    ? Math.min(100, (progress.bytes / progress.total) * 100)
    : progress.events
      ? Math.min(100, (shown / progress.events) * 100)
      : undefined;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const bytes = `reading ${mb(progress.bytes)} MB${progress.total ? ` of ${mb(progress.total)} MB` : ""}`;
  const events = `${shown.toLocaleString()}${
    !progress.total && progress.events ? ` of ${progress.events.toLocaleString()}` : ""
  } events`;
  return (
    <div className="loadbar" data-testid="load-progress">
      {!progress.done && (
        <>
          <progress max={100} value={pct} />
          <span>
            {bytes} · {events}
          </span>
        </>
      )}
      {(progress.error || error) && <span className="error">{progress.error ?? error}</span>}
    </div>
  );
}

type Tab = "counts" | "diagnostics" | "findings";

export const BottomPanel = memo(function BottomPanel({
  session,
  view,
  focusKey,
}: {
  session: TraceSession;
  view: ViewStore;
  focusKey?: string;
}) {
  useSessionVersion(session, 250);
  const [tab, setTab] = useState<Tab>("counts");
  // A new selection's lanes are drawn first; its excerpt (a pass over up to 20,000 events)
  // follows in a render of its own.
  const shownKey = useDeferredValue(focusKey);
  const excerpt = shownKey ? session.excerpt(shownKey) : undefined;
  const findings = session.findings();
  const ids = useTabIds();
  const tabs: { id: Tab; label: string }[] = [
    { id: "counts", label: "Counts & excerpt" },
    {
      id: "diagnostics",
      label: `Diagnostics (${session.diagnosticsTotal.toLocaleString("en-US")})`,
    },
    { id: "findings", label: `Findings (${findings.length})` },
  ];
  return (
    <section className="panel bottom" aria-label="Counts, excerpt, diagnostics">
      <TabList ids={ids} tabs={tabs} selected={tab} onSelect={setTab} testIdPrefix="tab-" />
      <TabPanel ids={ids} selected={tab}>
        {tab === "counts" &&
          (shownKey && excerpt ? (
            <div className="counts-excerpt">
              <CountsTable
                excerpt={excerpt.excerpt}
                withoutStages={passesWithoutStages(session.store, excerpt.excerpt)}
                unseen={unseenStages(session.store)}
              />
              <ExcerptPanel session={session} keyName={shownKey} />
            </div>
          ) : (
            <p className="muted">
              {session.source.kind === "none"
                ? "Open a trace (button, drag and drop, or a sample) — or start `pnpm loopscope up` for live mode."
                : session.store.length > 0 && session.store.keyList().length === 0
                  ? "No Foo in this trace: nothing to count (the objects panel says what it holds)."
                  : "Select an object to see its counts and annotated excerpt."}
            </p>
          ))}
        {tab === "diagnostics" && (
          <DiagnosticsList diagnostics={session.diagnostics} total={session.diagnosticsTotal} />
        )}
        {tab === "findings" && (
          <FindingsList
            findings={findings}
            view={view}
            focusKey={focusKey}
            earlierLife={(f) => aboutEarlierLife(session, f)}
          />
        )}
      </TabPanel>
    </section>
  );
});
