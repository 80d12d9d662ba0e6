/**
 * Keyboard: space play/pause (unless a button has the focus), ←/→ step, [ / ] previous / next
 * pass, + (or =) / − zoom the lanes, shift+←/→ pan them (the arrows move in time: shift moves the
 * view instead of the selection), f fit, c creation, t folded/linear time, p lanes/pass view, / search, ? the shortcuts
 * overlay, Esc clears the selection (in presenter mode it leaves presenter mode first: see
 * usePresenter). ↑/↓ in the objects table choose a Foo (ObjectsPanel). What the overlay lists is
 * shortcuts.ts: keep the two in step. While a modal dialog is open (the overlay) the keys are
 * its own, none of these.
 */
import { useEffect, type RefObject } from "react";
import type { TraceSession } from "../store/session.ts";
import type { ViewStore } from "../store/viewState.ts";
import { modalOpen } from "../ui/modal.ts";
import { fit, fitCreation, pan, step, stepPass, togglePlay, zoom } from "./navigation.ts";

function typing(t: EventTarget | null): boolean {
  return (
    t instanceof HTMLElement &&
    (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))
  );
}

export function useKeyboard(
  session: TraceSession,
  view: ViewStore,
  search: RefObject<HTMLInputElement | null>,
  toggleHelp: () => void,
): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key the workshop's step-through took (n, p, PageUp/Down) is not the page's too.
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || modalOpen()) return;
      if (typing(e.target)) {
        if (e.key === "Escape") (e.target as HTMLElement).blur();
        return;
      }
      switch (e.key) {
        case " ":
          // Space on a focused button presses the button (what keyboard users expect of it).
          if (e.target instanceof Element && e.target.closest("button, a, summary, [role=button]"))
            break;
          e.preventDefault();
          togglePlay(session, view);
          break;
        case "ArrowRight":
        case "ArrowLeft":
          e.preventDefault();
          if (e.shiftKey) pan(session, view, e.key === "ArrowRight" ? 1 : -1);
          else step(session, view, e.key === "ArrowRight" ? 1 : -1);
          break;
        // `+` is shift+= on most layouts: `=` zooms in too, so no shift is needed.
        case "+":
        case "=":
          zoom(session, view, 1);
          break;
        case "-":
          zoom(session, view, -1);
          break;
        case "]":
          stepPass(session, view, 1);
          break;
        case "[":
          stepPass(session, view, -1);
          break;
        case "f":
          fit(session, view);
          break;
        case "c":
          fitCreation(session, view);
          break;
        case "t":
          view.set((s) => ({ timeMode: s.timeMode === "folded" ? "linear" : "folded" }));
          break;
        case "p":
          view.set((s) => ({ timelineView: s.timelineView === "lanes" ? "passes" : "lanes" }));
          break;
        case "?":
          e.preventDefault();
          toggleHelp();
          break;
        case "/":
          e.preventDefault();
          search.current?.focus();
          break;
        case "Escape":
          view.set({ selectedSeq: undefined, selectedPass: undefined });
          break;
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, [session, view, search, toggleHelp]);
}
