/**
 * The dashboard shell: picks the source (live server if the page carries a token, else replay of a
 * file or sample), owns the current TraceSession and the ViewStore, and lays the views out.
 * Views get the session and view store as props; none of them owns data.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { LiveConnection } from "../live/connection.ts";
import { LiveActions } from "../live/LiveActions.tsx";
import { readToken } from "../live/token.ts";
import { CountsTable } from "../panels/CountsTable.tsx";
import { DetailsPanel } from "../panels/DetailsPanel.tsx";
import { DiagnosticsList } from "../panels/DiagnosticsList.tsx";
import { ExcerptPanel } from "../panels/ExcerptPanel.tsx";
import { FindingsList } from "../panels/FindingsList.tsx";
import { ObjectsPanel } from "../panels/ObjectsPanel.tsx";
import { fetchTrace, loadTrace, type Loading } from "../replay/load.ts";
import { Samples } from "../replay/Samples.tsx";
import { decodeDeepLink, encodeDeepLink } from "../store/deepLink.ts";
import { TraceSession } from "../store/session.ts";
import { ViewStore, type Theme } from "../store/viewState.ts";
import { Legend } from "../timeline/Legend.tsx";
import { Overview } from "../timeline/Overview.tsx";
import { Timeline } from "../timeline/Timeline.tsx";
import { useSessionVersion, useView } from "./hooks.ts";
import { useKeyboard } from "./useKeyboard.ts";
import { PlaybackBar } from "./PlaybackBar.tsx";
import { usePlayback } from "./usePlayback.ts";

function initialTheme(): Theme {
  const saved = globalThis.localStorage?.getItem("loopscope-theme");
  if (saved === "dark" || saved === "light") return saved;
  return globalThis.matchMedia?.("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

export function App() {
  const link = useMemo(() => decodeDeepLink(globalThis.location.search), []);
  const token = useMemo(() => readToken(), []);
  const view = useMemo(
    () =>
      new ViewStore({
        theme: initialTheme(),
        selectedKeys: link.foos,
        window: link.window,
        selectedSeq: link.seq,
        follow: link.window === undefined,
      }),
    [link],
  );
  const [loading, setLoading] = useState<Loading>(() => ({
    session: new TraceSession(token ? { kind: "live", name: "live" } : { kind: "none" }),
    cancel: () => {},
  }));
  const session = loading.session;
  const [error, setError] = useState<string | undefined>();
  const searchRef = useRef<HTMLInputElement>(null);

  // Live: one connection for the page's life (it reconnects by itself).
  const connection = useMemo(
    () =>
      token && session.source.kind === "live" ? new LiveConnection(session, token) : undefined,
    [token, session],
  );
  useEffect(() => {
    connection?.start();
    return () => connection?.stop();
  }, [connection]);
  const conn = useSyncExternalStore(
    connection?.subscribe ?? (() => () => {}),
    connection?.get ?? (() => undefined),
  );

  const replace = useCallback(
    (next: Loading) => {
      loading.cancel();
      setError(undefined);
      view.set({
        selectedKeys: [],
        selectedSeq: undefined,
        selectedPass: undefined,
        window: undefined,
        playhead: undefined,
        playing: false,
      });
      setLoading(next);
    },
    [loading, view],
  );

  const openFile = useCallback(
    (file: File) => replace(loadTrace(file, file.name, { kind: "replay", name: file.name })),
    [replace],
  );
  const openSample = useCallback(
    (path: string, keepView = false) => {
      fetchTrace(path, path.split("/").pop() ?? path, {
        kind: "replay",
        name: path,
        link: path,
      }).then(
        (l) => (keepView ? (loading.cancel(), setLoading(l)) : replace(l)),
        (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
      );
    },
    [replace, loading],
  );

  // A deep link names a trace: open it once, keeping the linked selection and window.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !link.trace || token) return;
    opened.current = true;
    openSample(link.trace, true);
  }, [link, token, openSample]);

  const version = useSessionVersion(session);
  const state = useView(view);

  // Select the first Foo once there is one, so the lanes are never empty for no reason.
  useEffect(() => {
    if (view.get().selectedKeys.length > 0) return;
    const first = session.store.keyList()[0];
    if (first) view.set({ selectedKeys: [first] });
  }, [version, session, view]);

  // Keep the URL a deep link to what is on screen (throttled: browsers limit replaceState).
  useEffect(() => {
    const t = setTimeout(() => {
      const q = encodeDeepLink({
        trace: session.source.link,
        foos: state.selectedKeys,
        window: state.window,
        seq: state.selectedSeq,
      });
      globalThis.history.replaceState(null, "", `${globalThis.location.pathname}${q}`);
    }, 250);
    return () => clearTimeout(t);
  }, [session, state.selectedKeys, state.window, state.selectedSeq]);

  useEffect(() => {
    document.documentElement.dataset.theme = state.theme;
    globalThis.localStorage?.setItem("loopscope-theme", state.theme);
  }, [state.theme]);

  usePlayback(session, view);
  useKeyboard(session, view, searchRef);

  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const focusKey = state.selectedKeys[0];
  const summary = focusKey ? session.summaryOf(focusKey) : undefined;
  const [tab, setTab] = useState<"counts" | "diagnostics" | "findings">("counts");
  const progress = session.progress;
  const pct = progress.total ? Math.min(100, (progress.bytes / progress.total) * 100) : undefined;
  const findings = session.findings();

  return (
    <div
      className={`app ${dragging ? "dragging" : ""}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        const f = e.dataTransfer.files[0];
        if (f) openFile(f);
      }}
    >
      <header className="topbar">
        <span className="brand">loopscope</span>
        <span className="source" data-testid="source">
          {session.source.kind === "live"
            ? `live · ${conn?.info?.cluster.kind ?? "…"}${conn?.info?.mode === "replay" ? ` · replaying ${conn.info.trace ?? ""}` : ""}`
            : session.source.kind === "replay"
              ? `replay · ${session.source.name ?? ""}`
              : "no trace open"}
        </span>
        {conn && (
          <span
            className={`status ${conn.status}`}
            data-testid="connection-status"
            data-status={conn.status}
          >
            {conn.status === "open" ? "connected" : conn.status}
            {conn.reconnects > 0 ? ` · resumed ×${conn.reconnects}` : ""}
          </span>
        )}
        <span
          className="muted event-count"
          data-testid="event-count"
          data-count={session.store.length}
          data-last-seq={session.store.lastSeq()}
          title="events held / last seq"
        >
          {session.store.length.toLocaleString()} events
        </span>
        {token && <LiveActions token={token} info={conn?.info} />}
        <span className="spacer" />
        <button data-testid="open-file" onClick={() => fileInput.current?.click()}>
          Open trace…
        </button>
        <input
          ref={fileInput}
          type="file"
          hidden
          data-testid="file-input"
          accept=".jsonl,.ndjson,.log,.txt,.gz,application/gzip,text/plain"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) openFile(f);
            e.target.value = "";
          }}
        />
        <Samples onOpen={(p) => openSample(p)} />
        <input
          ref={searchRef}
          className="search"
          data-testid="search"
          placeholder="Filter objects  ( / )"
          value={state.search}
          onChange={(e) => view.set({ search: e.target.value })}
        />
        <button
          data-testid="theme"
          title="Switch dark / light theme"
          onClick={() => view.set({ theme: state.theme === "dark" ? "light" : "dark" })}
        >
          {state.theme === "dark" ? "☀ light" : "☾ dark"}
        </button>
      </header>
      {(!progress.done || progress.error || error) && (
        <div className="loadbar" data-testid="load-progress">
          {!progress.done && (
            <>
              <progress max={100} value={pct} />
              <span>
                reading {(progress.bytes / 1e6).toFixed(1)} MB
                {progress.total ? ` of ${(progress.total / 1e6).toFixed(1)} MB` : ""} ·{" "}
                {session.store.length.toLocaleString()} events
              </span>
            </>
          )}
          {(progress.error || error) && <span className="error">{progress.error ?? error}</span>}
        </div>
      )}
      <ObjectsPanel session={session} view={view} />
      <main className="center">
        <Legend />
        <Overview session={session} view={view} />
        <Timeline session={session} view={view} />
        <PlaybackBar session={session} view={view} />
      </main>
      <DetailsPanel session={session} view={view} />
      <section className="panel bottom" aria-label="Counts, excerpt, diagnostics">
        <div className="tabs" role="tablist">
          <button
            role="tab"
            aria-selected={tab === "counts"}
            onClick={() => setTab("counts")}
            data-testid="tab-counts"
          >
            Counts &amp; excerpt
          </button>
          <button
            role="tab"
            aria-selected={tab === "diagnostics"}
            onClick={() => setTab("diagnostics")}
            data-testid="tab-diagnostics"
          >
            Diagnostics ({session.diagnostics.length})
          </button>
          <button
            role="tab"
            aria-selected={tab === "findings"}
            onClick={() => setTab("findings")}
            data-testid="tab-findings"
          >
            Findings ({findings.length})
          </button>
        </div>
        {tab === "counts" &&
          (focusKey && summary ? (
            <div className="counts-excerpt">
              <CountsTable summary={summary} />
              <ExcerptPanel session={session} keyName={focusKey} />
            </div>
          ) : (
            <p className="muted">
              {session.source.kind === "none"
                ? "Open a trace (button, drag and drop, or a sample) — or start `pnpm loopscope up` for live mode."
                : "Select an object to see its counts and annotated excerpt."}
            </p>
          ))}
        {tab === "diagnostics" && <DiagnosticsList diagnostics={session.diagnostics} />}
        {tab === "findings" && <FindingsList findings={findings} view={view} />}
      </section>
      {dragging && (
        <div className="dropzone">Drop a trace file (JSONL or klog, optionally .gz)</div>
      )}
    </div>
  );
}
