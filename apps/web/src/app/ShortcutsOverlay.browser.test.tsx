import { useCallback, useRef, useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { userEvent } from "vitest/browser";
import { render } from "vitest-browser-react";
import canonical from "../../../../packages/trace/fixtures/stage/create-canonical.log?raw";
import "../ui/styles.css";
import type { TraceSession } from "../store/session.ts";
import { ViewStore } from "../store/viewState.ts";
import { sessionFromText } from "../testing/fixtureSession.ts";
import { StepThrough } from "../workshop/StepThrough.tsx";
import { usePresenter } from "../workshop/usePresenter.ts";
import { stepSeqs, workshopData } from "../workshop/workshopData.ts";
import { useView } from "./hooks.ts";
import { ShortcutsOverlay } from "./ShortcutsOverlay.tsx";
import { useKeyboard } from "./useKeyboard.ts";

const KEY = "default/example-foo";

/** What App wires up around the overlay: the page's keys, the step-through and presenter mode. */
function Page({ session, view }: { session: TraceSession; view: ViewStore }) {
  const [help, setHelp] = useState(false);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const closeHelp = useCallback(() => setHelp(false), []);
  const search = useRef<HTMLInputElement>(null);
  useKeyboard(session, view, search, toggleHelp);
  usePresenter(true);
  const state = useView(view);
  return (
    <>
      <input ref={search} aria-label="Filter objects" />
      <button data-testid="opener" onClick={toggleHelp}>
        ?
      </button>
      <StepThrough
        session={session}
        view={view}
        data={workshopData(session, KEY)}
        focusKey={KEY}
        selectedSeq={state.selectedSeq}
      />
      {help && <ShortcutsOverlay onClose={closeHelp} />}
    </>
  );
}

async function page() {
  const session = sessionFromText(canonical);
  const steps = stepSeqs(workshopData(session, KEY), KEY, session.summaryOf(KEY)?.firstTs);
  const view = new ViewStore({ selectedKeys: [KEY], selectedSeq: steps[1] });
  const screen = await render(<Page session={session} view={view} />);
  const dialog = () => document.querySelector<HTMLElement>('[data-testid="shortcuts"]');
  const inDialog = () => dialog()?.contains(document.activeElement) ?? false;
  return { view, screen, dialog, inDialog };
}

afterEach(() => {
  localStorage.removeItem("loopscope-presenter");
});

describe("the ? shortcuts dialog", () => {
  it("is modal: Tab stays in it, and the focus goes back to the button that opened it", async () => {
    const { screen, dialog, inDialog } = await page();
    const opener = screen.getByTestId("opener").element() as HTMLElement;
    opener.focus();
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => dialog()).not.toBeNull();
    expect(inDialog()).toBe(true);
    for (const key of [
      "{Tab}",
      "{Tab}",
      "{Tab}",
      "{Shift>}{Tab}{/Shift}",
      "{Shift>}{Tab}{/Shift}",
    ]) {
      await userEvent.keyboard(key);
      expect(inDialog(), `after ${key}: ${document.activeElement?.outerHTML.slice(0, 60)}`).toBe(
        true,
      );
    }
    await userEvent.keyboard("{Escape}");
    await expect.poll(() => dialog()).toBeNull();
    expect(document.activeElement).toBe(opener);
    // Its Close button, and `?`, give the focus back too.
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => dialog()).not.toBeNull();
    await userEvent.keyboard("{Tab}{Enter}");
    await expect.poll(() => dialog()).toBeNull();
    expect(document.activeElement).toBe(opener);
    await userEvent.keyboard("{Enter}");
    await expect.poll(() => dialog()).not.toBeNull();
    await userEvent.keyboard("?");
    await expect.poll(() => dialog()).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("leaves the page's keys alone while it is open: t, p, ], space, n, PageDown, → change nothing behind it", async () => {
    const { view, dialog } = await page();
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard("?");
    await expect.poll(() => dialog()).not.toBeNull();
    const before = view.get();
    for (const key of ["t", "p", "]", " ", "n", "{PageDown}", "{ArrowRight}", "c", "f"])
      await userEvent.keyboard(key);
    const after = view.get();
    expect(dialog()).not.toBeNull();
    expect({
      timeMode: after.timeMode,
      timelineView: after.timelineView,
      selectedSeq: after.selectedSeq,
      selectedPass: after.selectedPass,
      playing: after.playing,
      window: after.window,
    }).toEqual({
      timeMode: before.timeMode,
      timelineView: before.timelineView,
      selectedSeq: before.selectedSeq,
      selectedPass: before.selectedPass,
      playing: before.playing,
      window: before.window,
    });
    // Closed, the same keys reach the page again.
    await userEvent.keyboard("?");
    await expect.poll(() => dialog()).toBeNull();
    await userEvent.keyboard("t");
    expect(view.get().timeMode).not.toBe(before.timeMode);
    await userEvent.keyboard("n");
    expect(view.get().selectedSeq).not.toBe(before.selectedSeq);
  });

  it("in presenter mode, Esc closes it first and leaves presenter mode on; the next Esc leaves presenter mode", async () => {
    localStorage.setItem("loopscope-presenter", "on");
    const { dialog } = await page();
    await expect.poll(() => document.documentElement.dataset.presenter).toBe("on");
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard("?");
    await expect.poll(() => dialog()).not.toBeNull();
    await userEvent.keyboard("{Escape}");
    await expect.poll(() => dialog()).toBeNull();
    expect(document.documentElement.dataset.presenter).toBe("on");
    await userEvent.keyboard("{Escape}");
    await expect.poll(() => document.documentElement.dataset.presenter).toBeUndefined();
  });
});
