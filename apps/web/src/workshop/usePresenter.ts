/**
 * Presenter mode lives on <html data-presenter>, so its CSS (workshop.css) can enlarge the whole
 * dashboard — lanes included — not just the workshop panel. Remembered across reloads.
 */
import { useEffect, useState } from "react";

const KEY = "loopscope-presenter";

export function usePresenter(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => globalThis.localStorage?.getItem(KEY) === "on");
  useEffect(() => {
    if (on) document.documentElement.dataset.presenter = "on";
    else delete document.documentElement.dataset.presenter;
    globalThis.localStorage?.setItem(KEY, on ? "on" : "off");
    return () => {
      delete document.documentElement.dataset.presenter;
    };
  }, [on]);
  return [on, setOn];
}
