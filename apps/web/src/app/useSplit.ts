/**
 * The split between the timeline and the panel below it: by default the lanes take the height
 * they need and the panel the rest (styles.css); dragging the divider sets the timeline row's
 * height, remembered across reloads; a double click goes back to the default.
 */
import { useCallback, useState } from "react";

const KEY = "loopscope-split";

function saved(): number | undefined {
  const v = Number(globalThis.localStorage?.getItem(KEY));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

export interface Split {
  /** The timeline row's height, px; undefined = as tall as the lanes need. */
  height: number | undefined;
  /** Pointer-down handler for the divider. */
  onPointerDown: (e: React.PointerEvent<HTMLElement>) => void;
  reset: () => void;
}

export function useSplit(): Split {
  const [height, setHeight] = useState(saved);
  const set = useCallback((h: number | undefined) => {
    setHeight(h);
    if (h === undefined) globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, String(Math.round(h)));
  }, []);
  const onPointerDown = useCallback(
    (e: React.PointerEvent<HTMLElement>) => {
      const handle = e.currentTarget;
      // The row's top: the divider sits at the row's bottom edge.
      const row = handle.parentElement?.querySelector<HTMLElement>(".center");
      if (!row) return;
      const top = row.getBoundingClientRect().top;
      handle.setPointerCapture(e.pointerId);
      handle.classList.add("dragging");
      const move = (ev: PointerEvent) =>
        set(Math.max(160, Math.min(globalThis.innerHeight - 120, ev.clientY - top)));
      const up = () => {
        handle.classList.remove("dragging");
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
      e.preventDefault();
    },
    [set],
  );
  return { height, onPointerDown, reset: useCallback(() => set(undefined), [set]) };
}
