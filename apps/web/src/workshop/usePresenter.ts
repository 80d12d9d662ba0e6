/**
 * Presenter mode lives on <html data-presenter>, so its CSS (workshop.css) can enlarge the whole
 * dashboard — lanes included — not just the workshop panel. It applies only while the workshop
 * panel is open (its toggle is there), and the choice is remembered across reloads. Esc leaves it.
 */
import { useEffect, useState } from "react";
import { modalOpen } from "../ui/modal.ts";

const KEY = "loopscope-presenter";

export function usePresenter(panelOpen: boolean): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => globalThis.localStorage?.getItem(KEY) === "on");
  useEffect(() => {
    globalThis.localStorage?.setItem(KEY, on ? "on" : "off");
  }, [on]);
  useEffect(() => {
    if (!(on && panelOpen)) return;
    document.documentElement.dataset.presenter = "on";
    // Esc leaves presenter mode, as it leaves a slideshow — and only that: caught before the
    // dashboard's own Esc (which clears the selection, and with it the step-through's place).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.ctrlKey || e.metaKey || e.altKey) return;
      // A dialog open over the page (the `?` shortcuts) takes Esc first: it closes, and only it.
      if (modalOpen()) return;
      e.stopImmediatePropagation();
      setOn(false);
    };
    globalThis.addEventListener("keydown", onKey, { capture: true });
    return () => {
      globalThis.removeEventListener("keydown", onKey, { capture: true });
      delete document.documentElement.dataset.presenter;
    };
  }, [on, panelOpen]);
  return [on, setOn];
}
