/**
 * The bottom panel's tabs and the workshop's are tabs to a keyboard and a screen reader: one Tab
 * stop, ←/→ and Home/End move between them (not the page's selection), and the panel below names
 * the selected tab.
 */
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "./styles.css";
import { BottomPanel } from "../app/StatusParts.tsx";
import { useKeyboard } from "../app/useKeyboard.ts";
import type { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { WorkshopDock } from "../workshop/WorkshopDock.tsx";

const KEY = "default/example-foo";

/** The bottom panel and the workshop with the page's keys around them, as App has them. */
function Page({ session, view }: { session: TraceSession; view: ViewStore }) {
  const search = useRef<HTMLInputElement>(null);
  useKeyboard(session, view, search, () => {});
  return (
    <>
      <WorkshopDock session={session} view={view} />
      <BottomPanel session={session} view={view} focusKey={KEY} />
    </>
  );
}

async function page() {
  const session = sessionFromText(canonical);
  const seq = session.store.seq.get(session.store.rowsOf(KEY)[2]!);
  const view = new ViewStore({ selectedKeys: [KEY], selectedSeq: seq });
  await render(
    <QueryClientProvider client={new QueryClient()}>
      <Page session={session} view={view} />
    </QueryClientProvider>,
  );
  return { view, seq };
}

function tablist(name: string): HTMLElement {
  const lists = [...document.querySelectorAll<HTMLElement>('[role="tablist"]')];
  return lists.find((l) => l.textContent!.includes(name))!;
}

/** What a screen reader is told of a tab list: its tabs, their Tab stops, the panel they show. */
function tabState(list: HTMLElement) {
  const tabs = [...list.querySelectorAll<HTMLElement>('[role="tab"]')];
  const selected = tabs.filter((t) => t.getAttribute("aria-selected") === "true");
  expect(selected).toHaveLength(1);
  const panel = document.getElementById(selected[0]!.getAttribute("aria-controls")!);
  for (const t of tabs) expect(t.getAttribute("aria-controls")).toBe(panel?.id);
  return {
    selected: selected[0]!.textContent!.split(" (")[0],
    focused: document.activeElement === selected[0],
    tabStops: tabs.filter((t) => t.tabIndex === 0).length,
    panelRole: panel?.getAttribute("role"),
    panelNamedBySelected: panel?.getAttribute("aria-labelledby") === selected[0]!.id,
  };
}

afterEach(() => {
  sessionStorage.removeItem("loopscope-workshop-open");
});

describe("tabs", () => {
  it("the bottom panel's: ←/→ and Home/End switch tabs, one Tab stop, the page's selection stays", async () => {
    const { view, seq } = await page();
    const list = tablist("Diagnostics");
    const ok = { tabStops: 1, panelRole: "tabpanel", panelNamedBySelected: true };
    expect(tabState(list)).toEqual({ selected: "Counts & excerpt", focused: false, ...ok });
    list.querySelector<HTMLElement>('[role="tab"]')!.focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(tabState(list)).toEqual({ selected: "Diagnostics", focused: true, ...ok });
    await userEvent.keyboard("{End}");
    expect(tabState(list)).toMatchObject({ selected: "Findings", focused: true });
    await userEvent.keyboard("{ArrowRight}");
    expect(tabState(list)).toMatchObject({ selected: "Counts & excerpt", focused: true });
    await userEvent.keyboard("{ArrowLeft}");
    expect(tabState(list)).toMatchObject({ selected: "Findings", focused: true });
    await userEvent.keyboard("{Home}");
    expect(tabState(list)).toMatchObject({ selected: "Counts & excerpt", focused: true });
    // The arrows were the tabs': the selected event is where it was.
    expect(view.get().selectedSeq).toBe(seq);
  });

  it("the workshop's: the same, from the tab the dock focuses when it opens", async () => {
    const { view, seq } = await page();
    document.querySelector<HTMLElement>('[data-testid="workshop-toggle"]')!.focus();
    await userEvent.keyboard("{Enter}");
    const list = () => tablist("Step through");
    await expect.poll(() => list() && tabState(list()).focused).toBe(true);
    await userEvent.keyboard("{ArrowLeft}");
    expect(tabState(list())).toEqual({
      selected: "Compare runs",
      focused: true,
      tabStops: 1,
      panelRole: "tabpanel",
      panelNamedBySelected: true,
    });
    await userEvent.keyboard("{ArrowRight}");
    expect(tabState(list())).toMatchObject({ selected: "Step through", focused: true });
    expect(view.get().selectedSeq).toBe(seq);
  });
});
