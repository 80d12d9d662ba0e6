/**
 * Every Foo seen, with its pass count, self-triggered passes, conflicts and state. Click selects
 * one; ctrl/⌘/shift-click adds to the selection (the timeline stacks their lane groups).
 *
 * For a keyboard and a screen reader the table is a listbox (WAI-ARIA practices): one tab stop,
 * ↑ ↓ Home End move the selection, shift+↑/↓ stack the next Foo too (ctrl-click's stacking),
 * ctrl+↑/↓ move the focus alone and ctrl+space stacks or unstacks the Foo focused; and
 * aria-activedescendant names the row focused (the one chosen last), so a screen
 * reader says it (the focus stays on the list: its rows are virtual, and come and go as it
 * scrolls). Each row, an option, is named in words — the columns' headers are not read per cell
 * in a listbox.
 *
 * The table draws only the rows in view (see rowWindow.ts): spacer rows above and below stand in
 * for the rest, so 10k Foos scroll like 10 and a refresh while a file loads lays out a screenful.
 */
import type { ClusterReachability, FooApiPresence, ServerInfo } from "@loopscope/protocol";
import type { KeySummary } from "@loopscope/trace";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
} from "react";
import { useSessionVersion, useViewPick } from "../app/hooks.ts";
import { rowWindow, scrollToShow } from "./rowWindow.ts";
import { passErrors } from "../store/passErrors.ts";
import { sharedNamespace } from "./sharedNamespace.ts";
import { NoObjects } from "./NoObjects.tsx";
import { MiddleCut } from "../ui/MiddleCut.tsx";
import { cellCount } from "./cellCount.ts";

/**
 * Height of one object row, px: one line (the name) when every Foo shares one namespace, two
 * (name, then namespace) when they differ. The stylesheet keeps the cells to those lines.
 */
export const OBJECT_ROW_HEIGHT = 28;
export const OBJECT_ROW_HEIGHT_WITH_NAMESPACE = 38;

/**
 * A live cluster's Foos as its latest objects snapshot has them: which exist (and which are being
 * deleted), as of the event `atSeq`. A probe's trace cannot say a Foo is gone — sample-controller
 * does not watch Foo deletions — so only a live session has this (a proxy's trace records the
 * delete: KeySummary.deleted).
 */
export interface ClusterFoos {
  atSeq: number;
  present: ReadonlySet<string>;
  deleting: ReadonlySet<string>;
}

/**
 * The state badge, what the Foo is doing now: deleted (gone from the cluster, with no event since
 * the snapshot said so; without a snapshot — `loopscope proxy`, a replay — its delete event said
 * so), hot loop (while it loops), error (its latest pass logged one), quiescent
 * or settling.
 */
export function objectState(
  s: KeySummary | undefined,
  cluster?: ClusterFoos,
  lastSeq = 0,
  lastPassErred = false,
): { label: string; tone: string; title?: string } {
  if (cluster && lastSeq <= cluster.atSeq && s) {
    if (!cluster.present.has(s.key)) return { label: "deleted", tone: "muted" };
    if (cluster.deleting.has(s.key)) return { label: "deleting", tone: "warn" };
  }
  if (!s) return { label: "…", tone: "muted" };
  if (!cluster && s.deleted) return { label: "deleted", tone: "muted" };
  // `hotLoop` says this life had one, and stays so (as its finding does); a quiescent key's
  // passes have stopped writing, so its loop is over.
  if (s.hotLoop && !s.quiescent) return { label: "hot loop", tone: "bad" };
  // Synced, yet not reconciled: sample-controller logs some failures and returns nil.
  if (lastPassErred) return { label: "error", tone: "bad" };
  if (s.quiescent)
    return s.hotLoop
      ? { label: "quiescent", tone: "good", title: "quiet now: its hot loop stopped (Findings)" }
      : { label: "quiescent", tone: "good" };
  return { label: "settling", tone: "warn" };
}

/**
 * Each state's mark in a narrow column (a 1024 px window), where the badge has no room for its
 * word: a shape of its own as well as its colour, so that a hot loop and a quiescent Foo differ
 * without colour too. The word stays the badge's text, for screen readers and the tooltip.
 */
export const STATE_GLYPH: Record<string, string> = {
  "hot loop": "↻",
  error: "!",
  quiescent: "✓",
  settling: "~",
  deleting: "−",
  deleted: "✕",
  "…": "…",
};

/** Where the rows' list sits in the scrolled panel: px scrolled past its top, and px in view. */
interface Viewport {
  scrolled: number;
  height: number;
}

export const ObjectsPanel = memo(function ObjectsPanel({
  session,
  view,
  cluster,
  serverMode,
  readOnly,
  reachability,
  fooApi,
}: {
  session: TraceSession;
  view: ViewStore;
  cluster?: ClusterFoos;
  /** What the page's server serves (a live cluster or a replayed file), once it said. */
  serverMode?: ServerInfo["mode"];
  /** A share link's page: it watches, it has no actions. */
  readOnly?: boolean;
  /** Whether a kubeconfig's cluster answers (absent: the embedded one, or not heard yet). */
  reachability?: ClusterReachability;
  /** Whether the cluster serves the Foo API (absent: not heard yet, or a replay). */
  fooApi?: FooApiPresence;
}) {
  useSessionVersion(session, 250);
  const selectedKeys = useViewPick(view, (s) => s.selectedKeys);
  const search = useViewPick(view, (s) => s.search);
  const q = search.trim().toLowerCase();
  const keys = session.store.keyList().filter((k) => !q || k.toLowerCase().includes(q));
  const ns = sharedNamespace(keys);
  const hiddenSelection = selectedKeys.filter((k) => !keys.includes(k));
  // Names of many namespaces get a line each for name and namespace: on one line, a narrow
  // column cut both to "d…checkout-s…" on every row.
  const twoLines = ns === undefined && keys.some((k) => k.includes("/"));
  const rowHeight = twoLines ? OBJECT_ROW_HEIGHT_WITH_NAMESPACE : OBJECT_ROW_HEIGHT;

  const panel = useRef<HTMLElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  // Until measured: the list at the top of a window-tall panel (a screenful at most, drawn once).
  const [port, setPort] = useState<Viewport>(() => ({
    scrolled: 0,
    height: globalThis.innerHeight ?? 1000,
  }));
  const measure = useCallback(() => {
    const p = panel.current;
    const b = body.current;
    if (!p || !b) return;
    const next = {
      scrolled: p.getBoundingClientRect().top + p.clientTop - b.getBoundingClientRect().top,
      height: p.clientHeight,
    };
    setPort((old) => (old.scrolled === next.scrolled && old.height === next.height ? old : next));
  }, []);
  useLayoutEffect(() => {
    const p = panel.current;
    if (!p) return;
    measure();
    let frame = 0;
    const onScroll = () => {
      if (frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          measure();
        });
    };
    p.addEventListener("scroll", onScroll, { passive: true });
    const resized = new ResizeObserver(measure);
    resized.observe(p);
    return () => {
      cancelAnimationFrame(frame);
      p.removeEventListener("scroll", onScroll);
      resized.disconnect();
    };
  }, [measure]);

  // A selection made elsewhere (a deep link, the keyboard, the timeline) is scrolled into view
  // once, when its row exists: later refreshes leave the user's own scrolling alone.
  const revealed = useRef<string | undefined>(undefined);
  const target = selectedKeys[selectedKeys.length - 1];
  const targetRow = target === undefined ? -1 : keys.indexOf(target);
  useEffect(() => {
    if (target === undefined || targetRow < 0 || revealed.current === target) return;
    revealed.current = target;
    const p = panel.current;
    if (!p) return;
    const by = scrollToShow(targetRow, rowHeight, port.scrolled, port.height);
    if (by !== 0) p.scrollTop += by;
  }, [target, targetRow, port, rowHeight]);

  const { first, end } = rowWindow(keys.length, rowHeight, port.scrolled, port.height);
  const ids = useId();
  const optionId = (row: number) => `${ids}-${row}`;
  // Ctrl+↑/↓ move the list's focus without choosing (WAI-ARIA's multi-select listbox), for
  // Ctrl+Space to stack the Foo there: that focus, while the selection is what it was then.
  const [cursor, setCursor] = useState<{ key: string; target: string | undefined }>();
  const focusKey = cursor && cursor.target === target ? cursor.key : target;
  const focusRow = focusKey === undefined ? -1 : keys.indexOf(focusKey);
  // The option the list's focus is on: the row last chosen (or Ctrl-moved to), while it is drawn.
  const active = focusRow >= first && focusRow < end ? optionId(focusRow) : undefined;
  const show = (row: number) => {
    const p = panel.current;
    const by = scrollToShow(row, rowHeight, port.scrolled, port.height);
    if (p && by !== 0) p.scrollTop += by;
  };
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (keys.length === 0) return;
    const at = focusRow;
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && e.key === " ") {
      // Ctrl+Space: the focused Foo into the stack, or out of it (ctrl-click's toggle).
      e.preventDefault();
      if (at < 0) return;
      view.toggleKey(keys[at], true);
      const now = view.get().selectedKeys;
      setCursor({ key: keys[at], target: now[now.length - 1] });
      return;
    }
    const to =
      e.key === "ArrowDown"
        ? Math.min(keys.length - 1, at + 1)
        : e.key === "ArrowUp"
          ? Math.max(0, at < 0 ? keys.length - 1 : at - 1)
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? keys.length - 1
              : undefined;
    if (to === undefined || e.altKey) return;
    e.preventDefault();
    const key = keys[to];
    const vertical = e.key === "ArrowDown" || e.key === "ArrowUp";
    if (ctrl) {
      // Ctrl+arrows (and Home/End): the focus moves, the selection stays.
      setCursor({ key, target });
      show(to);
      return;
    }
    setCursor(undefined);
    if (e.shiftKey && vertical && at >= 0) {
      // Shift+↑/↓ stack the next Foo too; back over a Foo stacked already, the one left is
      // unstacked (a range shrinks as it grew), and the one reached is the last chosen again.
      if (to === at) return;
      const stacked = view.get().selectedKeys;
      if (!stacked.includes(key)) view.toggleKey(key, true);
      else
        view.set({
          selectedKeys: [...stacked.filter((k) => k !== key && k !== keys[at]), key],
          selectedPass: undefined,
        });
      return;
    }
    // The one Foo there alone, as a click does — on the last row too, where ↓ and End used to
    // leave a ctrl-click stack as it was.
    const only = selectedKeys.length === 1 && selectedKeys[0] === key;
    if (!only) view.toggleKey(key, false);
  };
  return (
    <section className="panel objects" aria-label="Objects" ref={panel}>
      <h2>
        Objects <span className="count">{keys.length}</span>
      </h2>
      {/* The lanes and details show the selected Foo whatever the filter: say so when the filter
          hides it, or the page reads as if it showed what was filtered for. */}
      {q && hiddenSelection.length > 0 && (
        <p className="muted filtered-out" data-testid="selection-filtered-out">
          Shown: {hiddenSelection.join(", ")}, which the filter hides. Enter in the filter selects
          its first match.
        </p>
      )}
      <table
        data-testid="objects-table"
        className={twoLines ? "two-lines" : undefined}
        role="listbox"
        aria-label={`Foos${ns ? ` in ${ns.slice(0, -1)}` : ""}: ↑ and ↓ choose one, shift+↑ and ↓ more`}
        aria-multiselectable="true"
        aria-activedescendant={active}
        tabIndex={0}
        // One tab stop for the whole table (its rows are virtual): the arrows move the selection.
        onKeyDown={onKeyDown}
      >
        {/* Seen, not read: each option says its counts in words. */}
        <thead aria-hidden="true">
          <tr>
            <th data-testid="objects-namespace">
              Foo{ns && <span className="muted"> in {ns.slice(0, -1)}</span>}
            </th>
            <th title="passes (reconciles)">passes</th>
            <th title="passes triggered only by the controller's own writes">self</th>
            <th title="409 conflicts">409</th>
            <th>
              <span className="state-head">state</span>
            </th>
          </tr>
        </thead>
        <tbody ref={body} role="presentation">
          <Spacer rows={first} height={rowHeight} />
          {keys.slice(first, end).map((key, i) => {
            const s = session.summaryOf(key);
            const rows = session.store.rowsOf(key);
            const lastSeq = rows.length ? session.store.seq.data[rows[rows.length - 1]] : 0;
            const last = session.lastPassOf(key);
            const erred = last !== undefined && passErrors(session.store, last).length > 0;
            const st = objectState(s, cluster, lastSeq, erred);
            const selected = selectedKeys.includes(key);
            return (
              <tr
                key={key}
                data-testid="object-row"
                data-key={key}
                role="option"
                id={optionId(first + i)}
                aria-posinset={first + i + 1}
                aria-setsize={keys.length}
                aria-label={optionLabel(key, ns === undefined, s, st.label)}
                aria-selected={selected}
                className={
                  [selected && "selected", first + i === focusRow && cursor && "focused"]
                    .filter(Boolean)
                    .join(" ") || undefined
                }
                style={{ height: rowHeight }}
                onClick={(ev) => {
                  setCursor(undefined);
                  view.toggleKey(key, ev.ctrlKey || ev.metaKey || ev.shiftKey);
                }}
              >
                <td className="key" title={key}>
                  {twoLines && key.includes("/") ? (
                    <>
                      <MiddleCut className="name" text={key.slice(key.indexOf("/") + 1)} />
                      <MiddleCut className="ns" text={key.slice(0, key.indexOf("/"))} />
                    </>
                  ) : (
                    <MiddleCut className="name" text={key.slice(key.indexOf("/") + 1)} />
                  )}
                </td>
                <CountCell n={s?.passes} digits={COUNT_DIGITS} />
                <CountCell
                  n={s?.selfTriggered}
                  digits={COUNT_DIGITS}
                  className={s && s.selfTriggered > 0 ? "self" : undefined}
                />
                <CountCell n={s?.conflicts} digits={COUNT_DIGITS} />
                <td>
                  <span
                    className={`badge ${st.tone}`}
                    data-testid="object-state"
                    data-glyph={STATE_GLYPH[st.label] ?? "•"}
                    title={st.title ?? st.label}
                  >
                    <span className="state-word">{st.label}</span>
                  </span>
                </td>
              </tr>
            );
          })}
          <Spacer rows={keys.length - end} height={rowHeight} />
        </tbody>
      </table>
      {keys.length === 0 && (
        <NoObjects
          session={session}
          search={search}
          serverMode={serverMode}
          readOnly={readOnly}
          reachability={reachability}
          fooApi={fooApi}
        />
      )}
    </section>
  );
});

/**
 * What a screen reader says of a row, as the row shows it: the name whole (not MiddleCut's
 * halves), its namespace when the list's Foos are of several (else the list's name says it once),
 * then the counts and the state in words — "foo-1: 3 passes, 1 self-triggered, 1 conflict, …".
 */
export function optionLabel(
  key: string,
  withNamespace: boolean,
  s: KeySummary | undefined,
  state: string,
): string {
  const slash = key.indexOf("/");
  const name =
    withNamespace && slash >= 0
      ? `${key.slice(slash + 1)} in ${key.slice(0, slash)}`
      : key.slice(slash + 1);
  // "…" is the row's mark for a Foo not yet counted: a screen reader would say "dot dot dot".
  const said = state === "…" ? "not counted yet" : state;
  if (!s) return `${name}: ${said}`;
  return `${name}: ${count(s.passes, "pass", "passes")}, ${s.selfTriggered} self-triggered, ${count(s.conflicts, "conflict", "conflicts")}, ${said}`;
}

/** "1 pass", "0 passes", "3 passes". */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Stands in for `rows` rows that are not drawn (one cell: a row without cells has no height). */
function Spacer({ rows, height }: { rows: number; height: number }) {
  if (rows <= 0) return null;
  return (
    <tr aria-hidden="true" className="spacer">
      <td colSpan={5} style={{ height: rows * height }} />
    </tr>
  );
}

/** Digits a count column shows exactly (its width holds them; beyond, cellCount's short form). */
const COUNT_DIGITS = 4;

/** A count cell: shortened past its column's digits (cellCount), exact in the title then. */
function CountCell({ n, digits, className }: { n?: number; digits: number; className?: string }) {
  if (n === undefined) return <td className="num">–</td>;
  const text = cellCount(n, digits);
  return (
    <td
      className={className ? `num ${className}` : "num"}
      title={text === String(n) ? undefined : n.toLocaleString("en-US")}
    >
      {text}
    </td>
  );
}
