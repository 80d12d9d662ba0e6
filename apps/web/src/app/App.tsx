/**
 * The dashboard shell: picks the source (live server if the page carries a token, else replay of a
 * file or sample), owns the current TraceSession and the ViewStore, and lays the views out.
 * Views get the session and view store as props; none of them owns data.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { LiveConnection } from "../live/connection.ts";
import { LiveActions } from "../live/LiveActions.tsx";
import { readToken } from "../live/token.ts";
import { DetailsPanel } from "../panels/DetailsPanel.tsx";
import { ObjectsPanel } from "../panels/ObjectsPanel.tsx";
import { clusterFoos } from "../live/clusterFoos.ts";
import { useFooDeleted } from "../live/useFooDeleted.ts";
import { fetchTrace, loadTrace, type Loading } from "../replay/load.ts";
import { Samples } from "../replay/Samples.tsx";
import { decodeDeepLink, newRunSearch } from "../store/deepLink.ts";
import { TraceSession } from "../store/session.ts";
import { sourceLabel } from "./sourceLabel.ts";
import { connectionBadge } from "./connectionBadge.ts";
import { ViewStore, type Theme } from "../store/viewState.ts";
import { Legend } from "../timeline/Legend.tsx";
import { Overview } from "../timeline/Overview.tsx";
import { PassView } from "../timeline/PassView.tsx";
import { Timeline } from "../timeline/Timeline.tsx";
import { WorkshopDock } from "../workshop/WorkshopDock.tsx";
import { useViewPick } from "./hooks.ts";
import { Announcer } from "./Announcer.tsx";
import {
  BottomPanel,
  ConnectionStatus,
  EventCount,
  LoadBar,
  RecordingBadge,
} from "./StatusParts.tsx";
import { useDeepLinkSync } from "./useDeepLinkSync.ts";
import { useKeyboard } from "./useKeyboard.ts";
import { PlaybackBar } from "./PlaybackBar.tsx";
import { usePlayback } from "./usePlayback.ts";
import { ShortcutsOverlay } from "./ShortcutsOverlay.tsx";
import { SplitHandle } from "./SplitHandle.tsx";
import { useSplit } from "./useSplit.ts";

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
        selectedPass: link.pass,
        playhead: link.playhead,
        follow: link.window === undefined && link.playhead === undefined,
        ...(link.timeMode && { timeMode: link.timeMode }),
        ...(link.timelineView && { timelineView: link.timelineView }),
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
  // A replay server's trace never grows: nothing to follow, and the view opens on the creation.
  const replaying = conn?.info?.mode === "replay";
  // The live cluster's Foos, for the objects' "deleted" state: only while the page shows its run.
  const snapshot = conn?.info?.mode === "live" ? conn.objects : undefined;
  const cluster = useMemo(
    () => (snapshot && session.source.kind === "live" ? clusterFoos(snapshot) : undefined),
    [snapshot, session],
  );
  // Without them (the proxy keeps no informer): the trace's word, for scale and delete.
  const fooDeleted = useFooDeleted(session, "default/example-foo");
  useEffect(() => {
    if (replaying) view.set({ follow: false });
  }, [replaying, view]);
  const label = sourceLabel(session.source, conn?.info);
  const badge = conn && connectionBadge(conn, globalThis.navigator?.onLine !== false);

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

  // What is on screen stays until the new file proves to be a trace: its first events (or its
  // end, read whole) switch to it; a file refused at once (not a trace, binary) leaves the trace
  // that was open where it was, with the reason.
  const pending = useRef<Loading | undefined>(undefined);
  const openFile = useCallback(
    (file: File) => {
      pending.current?.cancel();
      const next = loadTrace(file, file.name, { kind: "replay", name: file.name });
      pending.current = next;
      const s = next.session;
      const settle = () => {
        if (pending.current !== next) return unsubscribe();
        const refused = s.store.length === 0 && s.progress.done && s.progress.error;
        if (!refused && s.store.length === 0 && !s.progress.done) return;
        unsubscribe();
        pending.current = undefined;
        if (refused) setError(s.progress.error);
        else replace(next);
      };
      const unsubscribe = s.subscribe(settle);
      settle();
    },
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

  // A deep link names a trace: open it once, keeping the linked selection and window — on a
  // loopscope server too (its "back to live" button returns to the live run).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !link.trace) return;
    opened.current = true;
    openSample(link.trace, true);
  }, [link, token, openSample]);

  const selectedKeys = useViewPick(view, (s) => s.selectedKeys);
  const theme = useViewPick(view, (s) => s.theme);
  const search = useViewPick(view, (s) => s.search);

  // Select a Foo once there is one (the one `loopscope excerpt` follows), so the lanes are never
  // empty for no reason.
  useEffect(() => {
    const pickFirst = () => {
      const { selectedKeys, pickFooFromRow } = view.get();
      // A scenario's Foo once its note comes; the selection stays meanwhile (a scenario refused
      // before its first note leaves the page as it was).
      const next =
        pickFooFromRow === undefined ? undefined : session.store.scenarioKeyFrom(pickFooFromRow);
      if (next) {
        view.set({ selectedKeys: [next], pickFooFromRow: undefined });
        return;
      }
      if (selectedKeys.length > 0) return;
      const first = session.store.defaultKey();
      if (first) view.set({ selectedKeys: [first] });
    };
    pickFirst();
    return session.subscribe(pickFirst);
  }, [session, view]);

  useDeepLinkSync(session, view);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    globalThis.localStorage?.setItem("loopscope-theme", theme);
  }, [theme]);

  usePlayback(session, view);
  const [help, setHelp] = useState(false);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const closeHelp = useCallback(() => setHelp(false), []);
  useKeyboard(session, view, searchRef, toggleHelp);
  const split = useSplit();
  const timelineView = useViewPick(view, (s) => s.timelineView);

  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);

  return (
    <div
      className={`app ${dragging ? "dragging" : ""}`}
      style={
        split.height === undefined
          ? undefined
          : ({ "--center-height": `${split.height}px` } as React.CSSProperties)
      }
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
        <span className="source" data-testid="source" title={label}>
          {label}
        </span>
        {conn && badge && <ConnectionStatus conn={conn} badge={badge} />}
        {conn?.status === "replaced" &&
          (conn.info?.readOnly ? (
            <span className="muted" data-testid="server-restarted">
              ask for the new share link
            </span>
          ) : (
            <button
              data-testid="server-restarted"
              title="Reload the page: the new run, from its start (this one is in runs/ if it was recorded)"
              onClick={() => {
                const { pathname, search } = globalThis.location;
                globalThis.location.assign(`${pathname}${newRunSearch(search)}`);
              }}
            >
              open the new run
            </button>
          ))}
        {token && conn?.recording && (
          <RecordingBadge session={session} failure={conn.recording} token={token} />
        )}
        <EventCount session={session} />
        {/* Actions act on the server's cluster: only while its run is what the page shows, and
            only for its owner (a replay server has no cluster; a share link only watches). */}
        {token &&
          session.source.kind === "live" &&
          conn?.info?.mode === "live" &&
          (conn.info.readOnly ? (
            <span className="status" data-testid="read-only" title="A share link: it watches">
              read-only
            </span>
          ) : (
            <LiveActions
              token={token}
              info={conn.info}
              view={view}
              cluster={conn.cluster}
              fooApi={conn.fooApi}
              connected={conn.status === "open"}
              foos={cluster}
              fooDeleted={fooDeleted}
              onScenarioStart={() => view.set({ pickFooFromRow: session.store.length })}
            />
          ))}
        <span className="spacer" />
        {token && session.source.kind !== "live" && (
          <button
            data-testid="back-to-live"
            title="Leave this trace for the server's own: the live run, or the file it replays"
            // The live session, as first opened — in place, not by loading the page again, which
            // left a keyboard user's focus on <body>: it goes to the button that took this one's
            // place (this one is gone with the trace it left).
            onClick={() => {
              replace({
                session: new TraceSession({ kind: "live", name: "live" }),
                cancel: () => {},
              });
              view.set({ follow: true });
              openButton.current?.focus();
            }}
          >
            ← back to the server
          </button>
        )}
        <button ref={openButton} data-testid="open-file" onClick={() => fileInput.current?.click()}>
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
        <WorkshopDock session={session} view={view} info={conn?.info} token={token} />
        <input
          ref={searchRef}
          className="search"
          data-testid="search"
          // Short enough to stay whole at 1024 px: the key that reaches it is the point.
          placeholder="Filter  ( / )"
          aria-label="Filter objects"
          value={search}
          onChange={(e) => view.set({ search: e.target.value })}
          title="Filter the objects by key; Enter selects the first match"
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            const q = search.trim().toLowerCase();
            const first = session.store.keyList().find((k) => k.toLowerCase().includes(q));
            if (first)
              view.set({ selectedKeys: [first], selectedPass: undefined, window: undefined });
          }}
        />
        <button
          data-testid="theme"
          title="Switch dark / light theme"
          aria-label={theme === "dark" ? "light theme" : "dark theme"}
          onClick={() => view.set({ theme: theme === "dark" ? "light" : "dark" })}
        >
          {theme === "dark" ? "☀" : "☾"}
          <span className="theme-word"> {theme === "dark" ? "light" : "dark"}</span>
        </button>
      </header>
      <LoadBar session={session} error={error} />
      <ObjectsPanel
        session={session}
        view={view}
        cluster={cluster}
        serverMode={conn?.info?.mode}
        readOnly={conn?.info?.readOnly}
        reachability={conn?.cluster}
        fooApi={conn?.fooApi}
      />
      <main className="center" id="timeline-row">
        <Legend view={view} onHelp={toggleHelp} />
        <Overview session={session} view={view} />
        {timelineView === "passes" ? (
          <PassView session={session} view={view} />
        ) : (
          <Timeline session={session} view={view} />
        )}
        <PlaybackBar session={session} view={view} growing={!replaying} />
      </main>
      {/* Here in the page's order, where Tab comes to it: between the timeline and the panels. */}
      <SplitHandle split={split} controls="timeline-row" />
      <DetailsPanel session={session} view={view} />
      <BottomPanel session={session} view={view} focusKey={selectedKeys[0]} />
      <Announcer session={session} view={view} />
      {help && <ShortcutsOverlay onClose={closeHelp} />}
      {dragging && (
        <div className="dropzone">Drop a trace file (JSONL or klog, optionally .gz)</div>
      )}
    </div>
  );
}
