/**
 * The split between the timeline and the panel below it: by default the lanes take the height
 * they need and the panel the rest (styles.css); dragging the divider — or its arrow keys, see
 * SplitHandle — sets the timeline row's height, remembered across reloads; a double click (Enter)
 * goes back to the default.
 */
import { useCallback, useState } from "react";

const KEY = "loopscope-split";
/** The lowest the timeline row goes: the axis and one Foo's lanes at their smallest. */
export const SPLIT_MIN = 160;
/** Room the panel below always keeps, px. */
const PANEL_MIN = 120;

/** The tallest the timeline row goes in this window. */
export function splitMax(): number {
  return Math.max(SPLIT_MIN, (globalThis.innerHeight ?? 800) - PANEL_MIN);
}

/** A height the row can take: between SPLIT_MIN and splitMax(). */
export function clampSplit(h: number): number {
  return Math.max(SPLIT_MIN, Math.min(splitMax(), h));
}

function saved(): number | undefined {
  const v = Number(globalThis.localStorage?.getItem(KEY));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

export interface Split {
  /** The timeline row's height, px; undefined = as tall as the lanes need. */
  height: number | undefined;
  /** Sets it (clamped) and remembers it; undefined goes back to the default. */
  set: (h: number | undefined) => void;
  /** Pointer-down handler for the divider. */
  onPointerDown: (e: React.PointerEvent<HTMLElement>) => void;
  reset: () => void;
}

export function useSplit(): Split {
  const [height, setHeight] = useState(saved);
  const set = useCallback((h: number | undefined) => {
    const v = h === undefined ? undefined : clampSplit(h);
    setHeight(v);
    if (v === undefined) globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, String(Math.round(v)));
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
      const move = (ev: PointerEvent) => set(ev.clientY - top);
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
  return { height, set, onPointerDown, reset: useCallback(() => set(undefined), [set]) };
}
