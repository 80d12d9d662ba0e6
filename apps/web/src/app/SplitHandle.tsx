/**
 * The divider between the timeline row and the panel below, as a window splitter (WAI-ARIA
 * practices): a focusable separator whose value is the timeline row's height as drawn — the
 * default's too, measured — so a screen reader says where it is. ↑ / ↓ move it (shift: further),
 * Home / End to the smallest / largest, Enter back to the default; the mouse drags it and a double
 * click is Enter. The page's own keys leave it alone: the arrows it takes it keeps (preventDefault).
 */
import { useEffect, useState } from "react";
import { SPLIT_MIN, splitMax, type Split } from "./useSplit.ts";

/** One arrow press, px; with shift, four. */
const STEP = 16;

export function SplitHandle({ split, controls }: { split: Split; controls: string }) {
  const [shown, setShown] = useState<number | undefined>(undefined);
  const [max, setMax] = useState(splitMax);
  // The row's height as laid out (the default is the lanes' need, capped: only layout knows it).
  useEffect(() => {
    const row = document.getElementById(controls);
    if (!row) return;
    const measure = () => {
      setShown(Math.round(row.getBoundingClientRect().height));
      setMax(splitMax());
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(row);
    globalThis.addEventListener("resize", measure);
    return () => {
      ro.disconnect();
      globalThis.removeEventListener("resize", measure);
    };
  }, [controls]);
  const now = split.height ?? shown ?? SPLIT_MIN;
  return (
    <div
      className="split"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Timeline height"
      aria-controls={controls}
      aria-valuemin={SPLIT_MIN}
      aria-valuemax={max}
      aria-valuenow={Math.round(Math.min(max, Math.max(SPLIT_MIN, now)))}
      aria-valuetext={`${Math.round(now)} px${split.height === undefined ? " (default)" : ""}`}
      // The description a screen reader reads after the name, and the mouse's tooltip.
      title="Drag, or ↑ ↓ Home End, to share the height between the timeline and the panel below; double-click or Enter for the default"
      tabIndex={0}
      data-testid="split"
      onPointerDown={split.onPointerDown}
      onDoubleClick={split.reset}
      onKeyDown={(e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        const by = e.shiftKey ? 4 * STEP : STEP;
        const to =
          e.key === "ArrowUp"
            ? now - by
            : e.key === "ArrowDown"
              ? now + by
              : e.key === "Home"
                ? SPLIT_MIN
                : e.key === "End"
                  ? max
                  : undefined;
        if (e.key === "Enter") split.reset();
        else if (to !== undefined) split.set(to);
        else return;
        e.preventDefault();
      }}
    />
  );
}
