/**
 * Workshop mode: a toggle in the top bar that opens the workshop panel — step-through with
 * narration and the machinery diagram, "What did you expect?", the queue view and compare — and
 * presenter mode (large type, high contrast, narration first, the read-only share link shown).
 * The panel is docked at the bottom; while it is open <html data-workshop="open"> makes the
 * dashboard give up that height (workshop.css), so the lanes fit above the dock.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { ServerInfo } from "@loopscope/protocol";
import { useSessionVersion, useView } from "../app/hooks.ts";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { TabList, TabPanel, useTabIds } from "../ui/Tabs.tsx";
import { ComparePanel } from "./ComparePanel.tsx";
import { ExpectPanel } from "./ExpectPanel.tsx";
import { QueueView } from "./QueueView.tsx";
import { StepThrough } from "./StepThrough.tsx";
import { goToSeq } from "./stepping.ts";
import { usePresenter } from "./usePresenter.ts";
import { workshopData } from "./workshopData.ts";
import "./workshop.css";

type Tab = "step" | "expect" | "queue" | "compare";
const TABS: { id: Tab; label: string }[] = [
  { id: "step", label: "Step through" },
  { id: "expect", label: "What did you expect?" },
  { id: "queue", label: "Queue" },
  { id: "compare", label: "Compare runs" },
];

interface Props {
  session: TraceSession;
  view: ViewStore;
  info?: ServerInfo;
  token?: string;
}

/** Whether the tab had the workshop open: a reload mid-workshop comes back to it. */
const OPEN_KEY = "loopscope-workshop-open";

export function WorkshopDock(props: Props) {
  const [open, setOpen] = useState(() => globalThis.sessionStorage?.getItem(OPEN_KEY) === "1");
  useEffect(() => {
    globalThis.sessionStorage?.setItem(OPEN_KEY, open ? "1" : "0");
  }, [open]);
  const [presenter, setPresenter] = usePresenter(open);
  const toggle = useRef<HTMLButtonElement>(null);
  // Opened by its button, the dock takes the focus: it is drawn at the end of the page, 17 Tabs
  // away. Reopened by a reload it leaves the focus where the page starts.
  const [takeFocus, setTakeFocus] = useState(false);
  return (
    <>
      <button
        ref={toggle}
        data-testid="workshop-toggle"
        className={open ? "active" : ""}
        aria-pressed={open}
        onClick={() => {
          setTakeFocus(!open);
          setOpen(!open);
        }}
        title="Workshop: step through with narration, expectations, queue, compare, presenter mode"
      >
        Workshop
      </button>
      {open &&
        createPortal(
          <WorkshopPanel
            {...props}
            presenter={presenter}
            setPresenter={setPresenter}
            takeFocus={takeFocus}
            onClose={() => {
              setOpen(false);
              // Its ✕ is gone with it: the focus goes back to the button that opened it.
              toggle.current?.focus();
            }}
          />,
          document.body,
        )}
    </>
  );
}

function WorkshopPanel({
  session,
  view,
  info,
  token,
  presenter,
  setPresenter,
  takeFocus,
  onClose,
}: Props & {
  presenter: boolean;
  setPresenter: (on: boolean) => void;
  /** Move the focus to the dock's first control, its selected tab, once it is drawn. */
  takeFocus: boolean;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>("step");
  const ids = useTabIds();
  const selectedTab = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) selectedTab.current?.focus();
  }, [takeFocus]);
  useEffect(() => {
    document.documentElement.dataset.workshop = "open";
    return () => {
      delete document.documentElement.dataset.workshop;
    };
  }, []);
  // Live traces grow many times a second; the workshop views need not follow faster than this.
  const version = useThrottled(useSessionVersion(session), 300);
  const state = useView(view);
  const focusKey = state.selectedKeys[0];
  const liveWorkers = info?.workers;
  const data = useMemo(
    () => workshopData(session, focusKey, liveWorkers),
    [session, focusKey, version, liveWorkers],
  );
  const summary = focusKey ? session.summaryOf(focusKey) : undefined;
  return (
    <section
      className={`workshop ${presenter ? "presenter" : ""}`}
      data-testid="workshop"
      aria-label="Workshop"
    >
      <header className="workshop-bar">
        <strong className="workshop-title">Workshop</strong>
        {/* The name alone (the whole key on hover): in a 1024 px bar "default/examp…" told nothing. */}
        <span className="workshop-key mono" data-testid="workshop-key" title={focusKey}>
          {focusKey === undefined ? (
            "no Foo selected"
          ) : (
            <span className="name">{focusKey.slice(focusKey.indexOf("/") + 1)}</span>
          )}
        </span>
        {summary?.hotLoop && (
          <span className="badge hot" data-testid="workshop-hot-loop">
            hot loop
          </span>
        )}
        {summary?.quiescent && (
          <span className="badge quiet" data-testid="workshop-quiescent">
            {summary.hotLoop ? "quiet now" : "quiescent"}
          </span>
        )}
        <TabList
          ids={ids}
          tabs={TABS}
          selected={tab}
          onSelect={setTab}
          testIdPrefix="workshop-tab-"
          selectedRef={selectedTab}
        />
        <span className="spacer" />
        {presenter && <ShareLink info={info} />}
        <button
          data-testid="presenter-toggle"
          aria-pressed={presenter}
          className={presenter ? "active" : ""}
          onClick={() => setPresenter(!presenter)}
        >
          {presenter ? "exit presenter" : "presenter mode"}
        </button>
        <button data-testid="workshop-close" onClick={onClose} aria-label="Close the workshop">
          ✕
        </button>
      </header>
      <TabPanel ids={ids} selected={tab} className="workshop-body">
        {tab === "step" && (
          <StepThrough
            session={session}
            view={view}
            data={data}
            focusKey={focusKey}
            selectedSeq={state.selectedSeq}
            presenter={presenter}
          />
        )}
        {tab === "expect" && (
          <ExpectPanel
            session={session}
            focusKey={focusKey}
            onGo={(seq) => (goToSeq(session, view, seq), setTab("step"))}
          />
        )}
        {tab === "queue" && <QueueView session={session} data={data} focusKey={focusKey} />}
        {tab === "compare" && (
          <ComparePanel
            session={session}
            token={token}
            focusKey={focusKey}
            name={
              info?.mode === "replay" && session.source.kind === "live" ? info.trace : undefined
            }
          />
        )}
      </TabPanel>
    </section>
  );
}

function ShareLink({ info }: { info?: ServerInfo }) {
  const url = info?.shareUrl;
  if (info?.readOnly && info.mode === "live")
    return <span className="share muted">read-only view</span>;
  return url ? (
    <span className="share" data-testid="share-link">
      attendees: <span className="mono">{url}</span>
    </span>
  ) : (
    <span className="share muted" data-testid="share-hint">
      for a read-only link for attendees start <span className="mono">loopscope up --share</span>
    </span>
  );
}

/** `value`, updated at most every `ms` (the latest value always arrives). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (Object.is(value, shown) || timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setShown(latest.current);
    }, ms);
  }, [value, shown, ms]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return shown;
}
